package io.ibaccept.collect;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A simulated InfiniBand fabric: ibsim (Debian ibsim-utils) running a netfile, with OpenSM instances attached
 * through libumad2sim. Node ids follow the netfile convention "H-host" for HCAs and "S-name" for switches.
 * Faults: degraded links (per-port w=/e= options on both ends), console commands (Unlink, Error, PerformanceSet).
 */
public final class SimFabric implements AutoCloseable {
    private final Path work;
    private final Process ibsim;
    private final OutputStream console;
    private final List<Process> sms = new ArrayList<>();
    private final Map<String, Process> smByHost = new java.util.HashMap<>();
    private final Transport transport;
    private final String sockName;
    private static final java.util.concurrent.atomic.AtomicInteger INSTANCES = new java.util.concurrent.atomic.AtomicInteger();
    private static final java.util.Set<SimFabric> RUNNING = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private SimFabric(Path work, Process ibsim, String sockName) {
        this.work = work;
        this.ibsim = ibsim;
        this.sockName = sockName;
        this.console = ibsim.getOutputStream();
        this.transport = new Transports.Sim("H-{host}", null, sockName);
    }

    /**
     * The IBSIM_SOCKNAME of this simulator: ibsim and every client (tools, opensm, the sim transport) get it, so
     * several simulators run side by side on one machine (tests in parallel, several engineers).
     */
    public String sockName() {
        return sockName;
    }

    /**
     * The socket name of the one simulator running in this JVM, or null when there is none or several. Lets a sim
     * transport built without a socket name (the CLI's --transport sim, in-process) reach a SimFabric started here.
     */
    static String soleSockName() {
        var all = List.copyOf(RUNNING);
        return all.size() == 1 ? all.get(0).sockName : null;
    }

    /** True when ibsim, opensm and libumad2sim are installed (Debian: ibsim-utils libumad2sim0 opensm infiniband-diags). */
    public static boolean available() {
        return Files.isExecutable(Path.of("/usr/bin/ibsim")) && Files.isExecutable(Path.of("/usr/sbin/opensm"))
                && Files.exists(Path.of(Transports.Sim.UMAD2SIM)) && Files.isExecutable(Path.of("/usr/sbin/ibstat"));
    }

    /** Netfile text with the link of each host in widthDown trained at 1X and each in speedDown at EDR. */
    public static String degrade(String netfile, List<String> widthDown, List<String> speedDown) {
        String s = netfile;
        for (String h : widthDown) s = portOption(s, h, "w=1");
        for (String h : speedDown) s = portOption(s, h, "e=3");
        return s;
    }

    /** Adds an option to both port lines of the host's link: '[p] "H-host"[1]' on the switch and '[1] "S-x"[p]' on the HCA. */
    static String portOption(String netfile, String host, String option) {
        Pattern swSide = Pattern.compile("(?m)^(\\[\\d+\\]\\s+\"H-" + Pattern.quote(host) + "\"\\[1\\])(.*)$");
        Matcher m = swSide.matcher(netfile);
        if (!m.find()) throw new IllegalArgumentException("host " + host + " is not cabled to a switch in the netfile");
        String s = m.replaceFirst("$1$2 " + option);
        Pattern caSide = Pattern.compile("(?ms)^(Ca\\s+\\d+\\s+\"H-" + Pattern.quote(host) + "\"[^\\n]*\\n\\[1\\]\\s+\"S-[^\"]+\"\\[\\d+\\])(.*?)$");
        Matcher c = caSide.matcher(s);
        if (!c.find()) throw new IllegalArgumentException("no HCA record for " + host + " in the netfile");
        return c.replaceFirst("$1$2 " + option);
    }

    public static SimFabric start(String netfileText, Path work) {
        try {
            Files.createDirectories(work);
            Path net = work.resolve("fabric.net");
            Files.writeString(net, netfileText, StandardCharsets.UTF_8);
            String sock = "ibacc" + ProcessHandle.current().pid() + "_" + INSTANCES.incrementAndGet();
            ProcessBuilder pb = new ProcessBuilder("ibsim", "-s", net.toString());
            pb.environment().put("IBSIM_SOCKNAME", sock);
            pb.environment().remove("LD_PRELOAD");
            pb.redirectErrorStream(true);
            pb.redirectOutput(work.resolve("ibsim.log").toFile());
            pb.directory(work.toFile());
            Process p = pb.start();
            SimFabric f = new SimFabric(work, p, sock);
            RUNNING.add(f);
            try {
                f.waitFor(() -> Files.readString(work.resolve("ibsim.log")).contains("Network simulator ready"), Duration.ofSeconds(20), "ibsim to start");
            } catch (RuntimeException e) {
                f.close();
                throw e;
            }
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Transport transport() {
        return transport;
    }

    /**
     * An opensm.conf as a site's SM node has it: written by 'opensm -c' with these options (e.g. "-R", "ftree", "-k",
     * "0x..."), which opensm writes into the file it creates. The file is in the work directory.
     */
    public Path opensmConf(String name, String... options) {
        Path conf = work.resolve(name);
        try {
            List<String> cmd = new ArrayList<>(List.of("opensm", "-c", conf.toString()));
            cmd.addAll(List.of(options));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(work.resolve(name + ".out").toFile());
            pb.environment().remove("LD_PRELOAD");
            Process p = pb.start();
            if (!p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("opensm -c did not finish; see " + work.resolve(name + ".out"));
            }
            if (p.exitValue() != 0 || !Files.isRegularFile(conf))
                throw new IllegalStateException("opensm -c failed (exit " + p.exitValue() + "); see " + work.resolve(name + ".out"));
            return conf;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing " + conf);
        }
    }

    /** Starts OpenSM attached at the host's HCA. Returns after it logs MASTER or STANDBY. */
    public void startSm(String host, int priority, Path partitions, String partEnforce) {
        startSm(host, priority, null, partitions, partEnforce);
    }

    /**
     * Starts OpenSM at the host's HCA with its own option file (-F config; null: none) and partitions file (-P; null:
     * the config's or opensm's default). priority null: the config file's sm_priority (no -p). Its log is
     * sm-HOST/opensm.log under the work directory; the collector finds both files from the process's command line.
     */
    public void startSm(String host, Integer priority, Path config, Path partitions, String partEnforce) {
        Path dir = work.resolve("sm-" + host);
        try {
            Files.createDirectories(dir);
            List<String> cmd = new ArrayList<>(List.of("opensm", "-f", dir.resolve("opensm.log").toString()));
            if (config != null) cmd.addAll(List.of("-F", config.toString()));
            if (priority != null) cmd.addAll(List.of("-p", String.valueOf(priority)));
            if (partitions != null) cmd.addAll(List.of("-P", partitions.toString()));
            if (partEnforce != null) cmd.addAll(List.of("--part_enforce", partEnforce));
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.environment().putAll(Map.of("LD_PRELOAD", Transports.Sim.UMAD2SIM, "SIM_HOST", "H-" + host, "IBSIM_SOCKNAME", sockName,
                    "OSM_TMP_DIR", dir.toString(), "OSM_CACHE_DIR", dir.toString()));
            pb.redirectErrorStream(true);
            pb.redirectOutput(dir.resolve("opensm.out").toFile());
            pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            Process p = pb.start();
            sms.add(p);
            smByHost.put(host, p);
            Path out = dir.resolve("opensm.out");
            waitFor(() -> {
                String s = Files.readString(out);
                return s.contains("Entering MASTER state") || s.contains("Entering STANDBY state");
            }, Duration.ofSeconds(40), "opensm on " + host + " to become MASTER or STANDBY");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the OpenSM started at the host's HCA (a dead SM: the ports keep pointing at its LID). */
    public void stopSm(String host) {
        Process p = smByHost.remove(host);
        if (p == null) return;
        sms.remove(p);
        p.destroy();
        try {
            if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) p.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Makes the OpenSM at the host's HCA sweep now (SIGHUP, by its PID: a heavy sweep, as opensm's own main loop does it). */
    public void sweep(String host) {
        Process p = smByHost.get(host);
        if (p == null || !p.isAlive()) return;
        try {
            Process k = new ProcessBuilder("kill", "-HUP", String.valueOf(p.pid())).redirectErrorStream(true).start();
            k.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public void stopSms() {
        for (Process p : sms) p.destroy();
        for (Process p : sms) {
            try {
                if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) p.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        sms.clear();
        smByHost.clear();
    }

    /**
     * Stops the processes attached to this simulated fabric that it did not start itself (an opensm a drill stopped and
     * started again): by PID, those whose environment names this fabric's unique socket.
     */
    public void stopOthersOnThisFabric() {
        String mine = "IBSIM_SOCKNAME=" + sockName;
        long self = ProcessHandle.current().pid(), sim = ibsim.pid();
        List<ProcessHandle> found = new ArrayList<>();
        ProcessHandle.allProcesses().forEach(h -> {
            if (h.pid() == self || h.pid() == sim) return;
            try {
                byte[] env = Files.readAllBytes(Path.of("/proc", String.valueOf(h.pid()), "environ"));
                for (String e : new String(env, StandardCharsets.UTF_8).split("\0"))
                    if (e.equals(mine)) {
                        found.add(h);
                        break;
                    }
            } catch (IOException | SecurityException gone) {
                // ended meanwhile, or not ours to read
            }
        });
        found.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : found) {
            try {
                h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (Exception stillThere) {
                h.destroyForcibly();
            }
        }
    }

    /** Sends one ibsim console command, e.g. {@code Unlink "H-node16"[1]}. */
    public void console(String command) {
        try {
            console.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            console.flush();
            Thread.sleep(300);
        } catch (IOException e) {
            throw new UncheckedIOException("ibsim console: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public void unlink(String host) {
        console("Unlink \"H-" + host + "\"[1]");
    }

    /** Sets a PortCounters field of a switch port, e.g. ("leaf03", 3, "SymbolErrorCounter", 1234). */
    public void setCounter(String switchName, int port, String counter, long value) {
        console("PerformanceSet \"S-" + switchName + "\"[" + port + "] PortCounters." + counter + "=" + value);
    }

    /** Waits until every listed host's port is Active (after an SM sweep) or the timeout passes. */
    public void awaitActive(List<String> hosts, Duration timeout) {
        waitFor(() -> {
            for (String h : hosts) {
                ExecResult r = transport.run(h, "ibstat", Duration.ofSeconds(10));
                if (!r.stdout().contains("State: Active")) return false;
            }
            return true;
        }, timeout, "ports of " + hosts + " to become Active");
    }

    /**
     * Waits until sminfo, asked from host, names a master SM of this priority (an SM takeover needs a sweep or more,
     * longer on a loaded machine than a fixed pause allows) or the timeout passes.
     */
    public void awaitMaster(String host, int priority, Duration timeout) {
        waitFor(() -> transport.run(host, "sminfo", Duration.ofSeconds(10)).stdout().contains("priority " + priority + " state 3"),
                timeout, "a master SM of priority " + priority);
    }

    /** Lets the SM notice topology changes (trap 128 triggers a sweep; the default sweep is 10 s). */
    public void settle(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    interface Check {
        boolean ok() throws IOException;
    }

    private void waitFor(Check c, Duration timeout, String what) {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            try {
                if (c.ok()) return;
            } catch (IOException ignored) {
                // file not there yet
            }
            if (!ibsim.isAlive()) throw new IllegalStateException("ibsim exited while waiting for " + what + "; see " + work.resolve("ibsim.log"));
            settle(Duration.ofMillis(250));
        }
        throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting for " + what + " (logs in " + work + ")");
    }

    @Override
    public void close() {
        RUNNING.remove(this);
        stopSms();
        stopOthersOnThisFabric();
        ibsim.destroy();
        try {
            if (!ibsim.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) ibsim.destroyForcibly().waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
