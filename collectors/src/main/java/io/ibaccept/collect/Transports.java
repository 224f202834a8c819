package io.ibaccept.collect;

import io.ibaccept.dump.CommandResult;
import io.ibaccept.safety.Shell;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The transports: local shell, the system ssh client, Slurm srun, and local with ibsim's umad2sim preloaded. */
public final class Transports {
    private Transports() {}

    /** Every "node" is this machine (single-node checks, or tests). */
    public static final class Local extends Transport {
        public String name() {
            return "local";
        }

        protected List<String> argv(String host, String script) {
            return List.of("bash", "-c", script);
        }
    }

    /**
     * System ssh: uses the user's ~/.ssh/config, keys and agent; BatchMode so a password prompt fails fast. No tty
     * (-T is the default without one), '--' before the host so no name is taken as an option, and the remote command
     * runs under timeout(1) so it ends on the node even when the connection to it is lost or the JVM is killed.
     */
    public static final class Ssh extends Transport {
        /** Private directory for the multiplexing sockets (ssh refuses sockets in world-writable places). */
        static final String CONTROL_DIR = controlDir();
        /** Seconds the remote side outlives the local deadline, so the local timeout is the one recorded. */
        static final int REMOTE_GRACE_S = 10;
        private final List<String> extra;
        private final String program;

        public Ssh(List<String> extraOptions) {
            this(extraOptions, "ssh");
        }

        /** program: the ssh client to run (a wrapper, or a fake one that records its argv in tests). */
        public Ssh(List<String> extraOptions, String program) {
            this.extra = List.copyOf(extraOptions);
            this.program = program;
        }

        public String name() {
            return "ssh";
        }

        protected List<String> argv(String host, String script) {
            return argv(host, script, Duration.ofHours(1));
        }

        @Override
        protected List<String> argv(String host, String script, Duration timeout) {
            // ssh keeps the first value it gets for an option: the user's own -o options come first and win
            List<String> a = new ArrayList<>(List.of(program));
            a.addAll(extra);
            a.addAll(List.of("-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
                    // one connection per node for all its commands
                    "-o", "ControlMaster=auto", "-o", "ControlPersist=60", "-o", "ControlPath=" + CONTROL_DIR + "/%C"));
            a.add("--");
            a.add(Shell.requireHost(host));
            // ssh joins its remote arguments with spaces for the remote login shell: give it one quoted line
            long secs = Math.max(1, (timeout.toMillis() + 999) / 1000) + REMOTE_GRACE_S;
            a.add(Shell.join("timeout", "-k", "5", String.valueOf(secs), "bash", "-lc", script));
            return a;
        }

        @Override
        protected String classify(int exit, String stderr) {
            if (exit == 255 && (stderr.contains("ssh:") || stderr.contains("Permission denied") || stderr.contains("Connection")
                    || stderr.contains("Host key verification failed"))) return CommandResult.UNREACHABLE;
            if (exit == 124) return CommandResult.TIMEOUT; // timeout(1) on the node ended it
            return super.classify(exit, stderr);
        }
    }

    /**
     * Slurm: one step per command and node inside an allocation or with srun's own allocation; SIGTERM to srun ends
     * the step. With oneStep, 'collect' runs every node's command list in a single step instead ({@link SlurmStep}).
     */
    public static final class Srun extends Transport {
        private final List<String> extra;
        private final String program;
        private final boolean oneStep;

        public Srun(List<String> extraOptions) {
            this(extraOptions, "srun");
        }

        public Srun(List<String> extraOptions, String program) {
            this(extraOptions, program, true);
        }

        /** oneStep false: one step per command and node, as every other srun user does (rdma, drills, counters). */
        public Srun(List<String> extraOptions, String program, boolean oneStep) {
            this.extra = List.copyOf(extraOptions);
            this.program = program;
            this.oneStep = oneStep;
        }

        public String name() {
            return "srun";
        }

        boolean oneStep() {
            return oneStep;
        }

        String program() {
            return program;
        }

        protected List<String> argv(String host, String script) {
            List<String> a = new ArrayList<>(List.of(program, "--quiet", "-N1", "-n1", "-w", Shell.requireHost(host)));
            a.addAll(extra);
            a.addAll(List.of("bash", "-c", script));
            return a;
        }

        /**
         * One task on each node of the file (one name a line; srun reads a --nodelist containing '/' as a file, so no
         * argument grows with the node count). --label: each output line carries its task id. --kill-on-bad-exit=0 and
         * --wait=0: a task that fails or ends early never ends the others (a site's KillOnBadExit or WaitTime would).
         * --overlap (Slurm 20.11+): the fabric node's queries run as steps of their own meanwhile; without it they would
         * wait for this step's CPUs and memory on that node.
         */
        List<String> stepArgv(int nodes, java.nio.file.Path nodeFile, String script) {
            List<String> a = new ArrayList<>(List.of(program, "--quiet", "--label", "--overlap", "--kill-on-bad-exit=0", "--wait=0",
                    "--nodes=" + nodes, "--ntasks=" + nodes, "--ntasks-per-node=1", "--nodelist=" + nodeFile.toAbsolutePath()));
            a.addAll(extra);
            a.addAll(List.of("bash", "-c", script));
            return a;
        }

        Process startStep(int nodes, java.nio.file.Path nodeFile, String script) throws java.io.IOException {
            return start(stepArgv(nodes, nodeFile, script));
        }

        @Override
        protected String classify(int exit, String stderr) {
            if (stderr.contains("srun: error: Unable to") || stderr.contains("Invalid node name") || stderr.contains("Required node not available"))
                return CommandResult.UNREACHABLE;
            return super.classify(exit, stderr);
        }
    }

    /**
     * Local execution against an ibsim fabric: every command gets LD_PRELOAD=libumad2sim.so, SIM_HOST set to the
     * simulator node id of the host (pattern with {host}, e.g. "H-{host}") and IBSIM_SOCKNAME of its simulator.
     */
    /** Every simulated host is this machine: the host is the SIM_HOST of the umad2sim library (tests extend it). */
    public static class Sim extends Transport {
        public static final String UMAD2SIM = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";
        private final String pattern;
        private final String lib;
        private final String sockName;

        public Sim(String simHostPattern, String lib) {
            this(simHostPattern, lib, null);
        }

        /** sockName: the simulator's IBSIM_SOCKNAME (null: see {@link #env}). */
        public Sim(String simHostPattern, String lib, String sockName) {
            this.pattern = simHostPattern;
            this.lib = lib == null ? UMAD2SIM : lib;
            this.sockName = sockName;
        }

        public String name() {
            return "sim";
        }

        protected List<String> argv(String host, String script) {
            return List.of("bash", "-c", script);
        }

        @Override
        protected Map<String, String> env(String host) {
            Map<String, String> env = new HashMap<>(Map.of("LD_PRELOAD", lib, "SIM_HOST", pattern.replace("{host}", host)));
            // explicit, else the one SimFabric of this JVM, else whatever IBSIM_SOCKNAME the environment has
            String sock = sockName != null ? sockName : SimFabric.soleSockName();
            if (sock != null) env.put("IBSIM_SOCKNAME", sock);
            return env;
        }
    }

    private static String controlDir() {
        return controlDir(java.nio.file.Path.of(System.getProperty("java.io.tmpdir")));
    }

    /**
     * The directory of ssh's control sockets: tmp/ibaccept-ssh-USER, made 0700. Its name is predictable in a shared
     * directory, so what is found there is used only when it is a real directory of this user closed to others; a link
     * or someone else's directory is left alone (never chmod-ed, never entered) and this run uses a new private one.
     */
    static String controlDir(java.nio.file.Path tmp) {
        java.nio.file.Path d = tmp.resolve("ibaccept-ssh-" + System.getProperty("user.name"));
        try {
            try {
                java.nio.file.Files.createDirectory(d, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // checked below
            }
            java.nio.file.LinkOption noFollow = java.nio.file.LinkOption.NOFOLLOW_LINKS;
            var a = java.nio.file.Files.readAttributes(d, java.nio.file.attribute.PosixFileAttributes.class, noFollow);
            boolean mine = java.nio.file.Files.getAttribute(d, "unix:uid", noFollow)
                    .equals(java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"), "unix:uid"));
            boolean closed = a.permissions().stream().allMatch(p -> p.name().startsWith("OWNER_"));
            if (a.isDirectory() && !a.isSymbolicLink() && mine && closed) return d.toString();
            return java.nio.file.Files.createTempDirectory(tmp, "ibaccept-ssh-").toString(); // 0700, new
        } catch (java.io.IOException | UnsupportedOperationException | IllegalArgumentException e) {
            try {
                return java.nio.file.Files.createTempDirectory(tmp, "ibaccept-ssh-").toString();
            } catch (java.io.IOException again) {
                // ssh then reports the unusable ControlPath itself; the command becomes a failed record
                return d.toString();
            }
        }
    }
}
