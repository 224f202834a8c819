package io.ibaccept.collect;

import io.ibaccept.dump.CommandResult;
import java.util.ArrayList;
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

    /** System ssh: uses the user's ~/.ssh/config, keys and agent; BatchMode so a password prompt fails fast. */
    public static final class Ssh extends Transport {
        /** Private directory for the multiplexing sockets (ssh refuses sockets in world-writable places). */
        static final String CONTROL_DIR = controlDir();
        private final List<String> extra;

        public Ssh(List<String> extraOptions) {
            this.extra = List.copyOf(extraOptions);
        }

        public String name() {
            return "ssh";
        }

        protected List<String> argv(String host, String script) {
            // ssh keeps the first value it gets for an option: the user's own -o options come first and win
            List<String> a = new ArrayList<>(List.of("ssh"));
            a.addAll(extra);
            a.addAll(List.of("-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
                    // one connection per node for all its commands
                    "-o", "ControlMaster=auto", "-o", "ControlPersist=60", "-o", "ControlPath=" + CONTROL_DIR + "/%C"));
            a.add(host);
            a.add("bash -lc " + quote(script));
            return a;
        }

        @Override
        protected String classify(int exit, String stderr) {
            if (exit == 255 && (stderr.contains("ssh:") || stderr.contains("Permission denied") || stderr.contains("Connection")
                    || stderr.contains("Host key verification failed"))) return CommandResult.UNREACHABLE;
            return super.classify(exit, stderr);
        }
    }

    /** Slurm: one step per node inside an allocation or with srun's own allocation. */
    public static final class Srun extends Transport {
        private final List<String> extra;

        public Srun(List<String> extraOptions) {
            this.extra = List.copyOf(extraOptions);
        }

        public String name() {
            return "srun";
        }

        protected List<String> argv(String host, String script) {
            List<String> a = new ArrayList<>(List.of("srun", "--quiet", "-N1", "-n1", "-w", host));
            a.addAll(extra);
            a.addAll(List.of("bash", "-c", script));
            return a;
        }

        @Override
        protected String classify(int exit, String stderr) {
            if (stderr.contains("srun: error: Unable to") || stderr.contains("Invalid node name") || stderr.contains("Required node not available"))
                return CommandResult.UNREACHABLE;
            return super.classify(exit, stderr);
        }
    }

    /**
     * Local execution against an ibsim fabric: every command gets LD_PRELOAD=libumad2sim.so and SIM_HOST set to the
     * simulator node id of the host (pattern with {host}, e.g. "H-{host}").
     */
    public static final class Sim extends Transport {
        public static final String UMAD2SIM = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";
        private final String pattern;
        private final String lib;

        public Sim(String simHostPattern, String lib) {
            this.pattern = simHostPattern;
            this.lib = lib == null ? UMAD2SIM : lib;
        }

        public String name() {
            return "sim";
        }

        protected List<String> argv(String host, String script) {
            return List.of("bash", "-c", script);
        }

        @Override
        protected Map<String, String> env(String host) {
            return Map.of("LD_PRELOAD", lib, "SIM_HOST", pattern.replace("{host}", host));
        }
    }

    private static String controlDir() {
        java.nio.file.Path d = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "ibaccept-ssh-" + System.getProperty("user.name"));
        try {
            java.nio.file.Files.createDirectories(d);
            d.toFile().setReadable(false, false);
            d.toFile().setWritable(false, false);
            d.toFile().setExecutable(false, false);
            d.toFile().setReadable(true, true);
            d.toFile().setWritable(true, true);
            d.toFile().setExecutable(true, true);
        } catch (java.io.IOException e) {
            // ssh then reports the unusable ControlPath itself; the command becomes a failed record
        }
        return d.toString();
    }

    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
