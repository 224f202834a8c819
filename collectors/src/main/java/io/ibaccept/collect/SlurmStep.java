package io.ibaccept.collect;

import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.RawText;
import io.ibaccept.dump.sources.Source;
import io.ibaccept.safety.Shell;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The per-node collection of every node in one Slurm job step: one srun, one task per node, each task running the
 * node's whole command list in a script, instead of one step per command per node (about 19 steps per node, which
 * Slurm's step limits and slurmctld's load end at around 2,000 nodes).
 *
 * How the outputs come back: on the tasks' stdout, which srun multiplexes to this process, with --label. No shared
 * filesystem is assumed (an --output=DIR/%N.out pattern would need the dump directory mounted on every node). srun
 * labels every line with its task id ("%*d: ", write_labelled_message.c), and slurmstepd sends the output of a task
 * line by line as long as a line is shorter than SLURM_IO_MAX_MSG_LEN (1,024 bytes; a longer one is cut and labelled
 * twice). So the script writes only short lines: marker lines starting with '@' and each output as base64 in 76-column
 * lines (the base64 alphabet has no '@'). Every command is one self-delimiting record (start, out, err, end), and the
 * task ends with "done": a task that died or hung is told apart from one that finished, and what it sent before is kept.
 *
 * Deadlines live in the script: timeout(1) per command, never beyond the node's deadline, and a node hung on two
 * commands in a row gives up the rest, as {@link Collector} does per command. This side only bounds the step as a
 * whole (the node deadline plus a grace for the launch), then stops srun. The nodes need bash and coreutils (timeout,
 * base64, head, wc, mktemp, date), as the per-command transports need bash and timeout.
 */
final class SlurmStep {
    /** What a node's task produced for one of its commands. */
    interface Sink {
        void result(String node, CommandSet.Spec spec, ExecResult r);
    }

    private final Transports.Srun srun;
    private final Duration budget;
    private final Sink sink;
    /** The step's private directory: the node list, and the records too large to hold in memory while they arrive. */
    private volatile Path spillDir;

    SlurmStep(Transports.Srun srun, Duration budget, Sink sink) {
        this.srun = srun;
        this.budget = budget;
        this.sink = sink;
    }

    /** Seconds the step may run beyond the node deadline: the launch over every node, the kill grace of timeout(1). */
    static Duration grace(Duration budget) {
        long s = Math.max(10, Math.min(120, budget.toSeconds() / 4));
        return Duration.ofSeconds(s);
    }

    /**
     * The script every task runs: perNode, then smNamed on the nodes named in smNodes or smFound on the others; a
     * command's id in the stream is its index in that concatenation.
     */
    static String script(List<CommandSet.Spec> perNode, List<CommandSet.Spec> smNamed, List<CommandSet.Spec> smFound,
                         List<String> smNodes, Duration budget, long limit) {
        StringBuilder s = new StringBuilder();
        s.append("node=${SLURMD_NODENAME:-$(hostname -s)}\n")
                .append("echo \"@ibaccept node $node\"\n")
                .append("d=$(mktemp -d \"${TMPDIR:-/tmp}/ibaccept.XXXXXX\") || { echo '@ibaccept fail cannot create a temporary directory'; exit 1; }\n")
                .append("trap 'rm -rf \"$d\"' EXIT\ntrap 'exit 143' TERM INT HUP\n")
                .append("end=$((SECONDS + ").append(Math.max(1, budget.toSeconds())).append(")); hung=0; nosm=0\n")
                // the same rules as Collector.series: a hung node is given up after two timeouts in a row, nothing starts
                // after the deadline, and no command may run past it
                .append("run() {\n")
                .append("  if [ \"$hung\" -ge 2 ]; then echo \"@ibaccept skip $1 hung\"; return; fi\n")
                .append("  t=$2; left=$((end - SECONDS)); if [ \"$left\" -le 0 ]; then echo \"@ibaccept skip $1 deadline\"; return; fi\n")
                .append("  [ \"$left\" -lt \"$t\" ] && t=$left\n")
                .append("  echo \"@ibaccept start $1\"; t0=$(date +%s%N)\n")
                .append("  timeout -k 5 \"$t\" bash -c \"$3\" </dev/null >\"$d/o\" 2>\"$d/e\"; rc=$?\n")
                .append("  ms=$(( ($(date +%s%N) - t0) / 1000000 )); timed=0\n")
                // timeout(1) exits 124 (TERM) or 137 (KILL after the grace); a command that exits 124 by itself is not a timeout
                .append("  if { [ \"$rc\" -eq 124 ] || [ \"$rc\" -eq 137 ]; } && [ \"$ms\" -ge $((t * 1000 - 100)) ]; then timed=1; hung=$((hung + 1)); else hung=0; fi\n")
                .append("  echo \"@ibaccept out $1 $(wc -c < \"$d/o\")\"; head -c ").append(limit).append(" \"$d/o\" | base64\n")
                .append("  echo \"@ibaccept err $1 $(wc -c < \"$d/e\")\"; head -c ").append(limit).append(" \"$d/e\" | base64\n")
                .append("  echo \"@ibaccept end $1 $rc $ms $timed $t\"\n")
                .append("}\n");
        int id = 0;
        for (CommandSet.Spec spec : perNode) line(s, id++, spec);
        if (!smNamed.isEmpty() || !smFound.isEmpty()) {
            s.append("case \" ").append(String.join(" ", smNodes.stream().map(Shell::requireHost).toList()))
                    .append(" \" in *\" $node \"*)\n");
            for (CommandSet.Spec spec : smNamed) line(s, id++, spec);
            s.append(";;\n*)\n");
            for (CommandSet.Spec spec : smFound) line(s, id++, spec);
            s.append(";;\nesac\n");
        }
        return s.append("echo '@ibaccept done'\n").toString();
    }

    private static void line(StringBuilder s, int id, CommandSet.Spec spec) {
        boolean sm = spec.cmd().source().scope() == Source.Scope.SM_NODE;
        long t = Math.max(1, (spec.timeout().toMillis() + 999) / 1000);
        // no opensm runs here: the other SM files are not looked for (Collector.series' noSm)
        if (sm) s.append("[ \"$nosm\" = 1 ] || ");
        s.append("run ").append(id).append(' ').append(t).append(' ').append(Shell.quote(spec.script())).append('\n');
        if (spec.cmd() == io.ibaccept.dump.Cmd.OPENSM_PROCESS && !spec.notHereExits().isEmpty()) {
            s.append("case \"${rc:-}\" in ");
            s.append(String.join("|", spec.notHereExits().stream().sorted().map(String::valueOf).toList()));
            s.append(") [ \"$timed\" = 0 ] && nosm=1 ;; esac\n");
        }
    }

    private static final Pattern LABEL = Pattern.compile("^\\s*(\\d+): (.*)$");

    /**
     * Runs the step over nodes. specsOf gives each node's command list (perNode, then its SM commands), in the ids of
     * {@link #script}. Every command of every node ends as one result: what its task sent, else an error record saying
     * why nothing came (no task ran there, the task ended, the step outlived its deadline).
     */
    void run(List<String> nodes, List<CommandSet.Spec> perNode, List<CommandSet.Spec> smNamed, List<CommandSet.Spec> smFound,
             List<String> smNodes) {
        List<CommandSet.Spec> all = new ArrayList<>(perNode);
        all.addAll(smNamed);
        all.addAll(smFound);
        int namedFrom = perNode.size(), foundFrom = namedFrom + smNamed.size();
        Map<String, NodeState> states = new LinkedHashMap<>();
        for (String n : nodes) {
            List<Integer> ids = new ArrayList<>();
            for (int i = 0; i < namedFrom; i++) ids.add(i);
            boolean named = smNodes.contains(n);
            int from = named ? namedFrom : foundFrom, to = named ? foundFrom : all.size();
            for (int i = from; i < to; i++) ids.add(i);
            states.put(n, new NodeState(n, ids));
        }
        long limit = Transport.outputLimit();
        String script = script(perNode, smNamed, smFound, smNodes, budget, limit);
        Path dir = null;
        Process p = null;
        Duration wall = budget.plus(grace(budget));
        String srunErr = "";
        boolean timedOut = false;
        try {
            dir = Files.createTempDirectory("ibaccept-step-");
            spillDir = dir;
            Path nodeFile = dir.resolve("nodes");
            Files.write(nodeFile, nodes, StandardCharsets.UTF_8);
            p = srun.startStep(nodes.size(), nodeFile, script);
            Transport.Drainer err = new Transport.Drainer(p.getErrorStream(), "ibaccept-srun-stderr", 1 << 20);
            Map<Integer, Task> tasks = new HashMap<>();
            Process proc = p;
            Thread reader = new Thread(() -> read(proc.getInputStream(), tasks, states, all, limit), "ibaccept-srun-stdout");
            reader.setDaemon(true);
            reader.start();
            String beforeStop = null;
            if (!p.waitFor(wall.toMillis(), TimeUnit.MILLISECONDS)) {
                timedOut = true;
                // what srun said before it was stopped: the tasks it reports ending afterwards ended because of the stop
                beforeStop = err.text();
                Transport.stop(p);
            }
            reader.join(10_000);
            err.join(2_000);
            srunErr = beforeStop != null ? beforeStop : err.text();
        } catch (IOException e) {
            srunErr = "cannot start " + srun.program() + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (p != null) Transport.stop(p);
            return;
        } finally {
            if (p != null) Transport.forget(p);
            if (dir != null) {
                try (var files = Files.list(dir)) {
                    for (Path f : files.toList()) Files.deleteIfExists(f);
                    Files.deleteIfExists(dir);
                } catch (IOException ignored) {
                    // a file left behind stays in a directory only this user can read
                }
            }
        }
        boolean wasTimedOut = timedOut;
        String stepErr = srunErr;
        for (NodeState st : states.values()) {
            synchronized (st) {
                if (!st.done) finish(st, all, wasTimedOut, stepErr);
            }
        }
    }

    /** The commands a node's task did not report: why, in the words of Collector.series where they mean the same. */
    private void finish(NodeState st, List<CommandSet.Spec> all, boolean timedOut, String srunErr) {
        String why = srunLines(srunErr, st.node), about = srunLinesAbout(srunErr, st.node);
        for (int id : st.ids) {
            if (st.reported.contains(id)) continue;
            if (st.skipSm && all.get(id).cmd().source().scope() == Source.Scope.SM_NODE) continue;
            ExecResult r;
            // srun said why no task ran there (launch failed, node down): unreachable, even if the step ran on past its deadline
            if (!st.seen && !about.isEmpty()) r = new ExecResult(CommandResult.UNREACHABLE, -1, "", "no task of the job step ran on "
                    + st.node + ": " + about, 0);
            else if (!st.seen && timedOut) r = new ExecResult(CommandResult.TIMEOUT, -1, "", "no answer from the job step's task on "
                    + st.node + " within the node deadline of " + budget.toSeconds() + " s", 0);
            else if (!st.seen) r = new ExecResult(CommandResult.UNREACHABLE, -1, "",
                    "no task of the job step ran on " + st.node + (why.isEmpty() ? "" : ": " + why), 0);
            // srun reported the task's end ("n4: task 3: Killed"): it ended, whether or not the step outlived its deadline
            else if (timedOut && about.isEmpty()) r = id == st.running
                    ? new ExecResult(CommandResult.TIMEOUT, -1, "", "timed out: the job step's task on " + st.node
                            + " did not finish within the node deadline of " + budget.toSeconds() + " s", 0)
                    : new ExecResult(CommandResult.TIMEOUT, -1, "", "not run: node deadline of " + budget.toSeconds() + " s exceeded", 0);
            else if (st.failure != null) r = new ExecResult(CommandResult.FAILED, -1, "", "not run: " + st.failure, 0);
            else r = id == st.running
                    ? new ExecResult(CommandResult.FAILED, -1, "", "the job step's task on " + st.node + " ended while this ran"
                            + (why.isEmpty() ? "" : ": " + why), 0)
                    : new ExecResult(CommandResult.UNREACHABLE, -1, "", "not run: the job step's task on " + st.node + " ended"
                            + (why.isEmpty() ? "" : ": " + why), 0);
            sink.result(st.node, all.get(id), r);
        }
        st.done = true;
    }

    /** srun's own lines about this node ("srun: error: n4: task 3: Killed"), else all its error lines. */
    static String srunLines(String err, String node) {
        String mine = srunLinesAbout(err, node);
        if (!mine.isEmpty()) return mine;
        List<String> srunSaid = err.lines().map(String::strip).filter(t -> t.startsWith("srun:")).toList();
        return first(srunSaid.isEmpty() ? err.lines().map(String::strip).filter(t -> !t.isEmpty()).toList() : srunSaid);
    }

    /** srun's lines that name this node: "srun: error: n4: task 3: Killed", "... failed on node n3: ...". */
    static String srunLinesAbout(String err, String node) {
        return first(err.lines().map(String::strip).filter(t -> t.contains(" " + node + ":") || t.contains(" " + node + " ")).toList());
    }

    private static String first(List<String> lines) {
        return String.join("; ", lines.size() > 5 ? lines.subList(0, 5) : lines);
    }

    /** Reads srun's labelled stdout to its end, feeding each task's lines to its decoder. */
    private void read(InputStream in, Map<Integer, Task> tasks, Map<String, NodeState> states, List<CommandSet.Spec> all, long limit) {
        try (in) {
            LineReader lines = new LineReader(in);
            String line;
            while ((line = lines.next()) != null) {
                Matcher m = LABEL.matcher(line);
                if (!m.matches()) continue;
                int task;
                try {
                    task = Integer.parseInt(m.group(1));
                } catch (NumberFormatException e) {
                    continue;
                }
                tasks.computeIfAbsent(task, t -> new Task()).line(m.group(2), states, all, limit);
            }
        } catch (IOException ignored) {
            // srun was stopped: what arrived is kept, the rest is accounted for by finish()
        }
    }

    private static final class NodeState {
        final String node;
        final List<Integer> ids;
        final java.util.Set<Integer> reported = new java.util.HashSet<>();
        boolean seen, done, skipSm;
        int running = -1;
        String failure;

        NodeState(String node, List<Integer> ids) {
            this.node = node;
            this.ids = ids;
        }
    }

    /** One task's stream: which node it is, and the record being received. */
    private final class Task {
        NodeState st;
        int id = -1;
        Capture out, err, cur;
        long outBytes, errBytes;

        void line(String l, Map<String, NodeState> states, List<CommandSet.Spec> all, long limit) {
            if (!l.startsWith("@ibaccept ")) {
                if (cur != null) cur.add(l.strip(), limit);
                return;
            }
            String[] f = l.substring("@ibaccept ".length()).split(" ", 7);
            if (f[0].equals("node")) {
                NodeState s = f.length > 1 ? states.get(f[1].strip()) : null;
                if (s != null) synchronized (s) {
                    if (!s.seen && !s.done) {
                        s.seen = true;
                        st = s;
                    }
                }
                return;
            }
            if (st == null) return; // a task on a node this collection did not ask for
            synchronized (st) {
                if (st.done) return;
                switch (f[0]) {
                    case "start" -> {
                        id = id(f, st);
                        st.running = id;
                        discard();
                    }
                    case "out" -> {
                        discard();
                        out = cur = new Capture(spillDir);
                        outBytes = f.length > 2 ? parse(f[2]) : 0;
                    }
                    case "err" -> {
                        if (err != null) err.discard();
                        err = cur = new Capture(spillDir);
                        errBytes = f.length > 2 ? parse(f[2]) : 0;
                    }
                    case "end" -> end(f, all, limit);
                    case "skip" -> {
                        int sid = id(f, st);
                        if (sid >= 0 && st.reported.add(sid)) sink.result(st.node, all.get(sid), skipped(f.length > 2 ? f[2] : ""));
                    }
                    case "fail" -> st.failure = (l.length() > 15 ? l.substring(15) : "the task failed") + " on " + st.node;
                    case "done" -> {
                        st.done = true;
                        st.running = -1;
                    }
                    default -> { }
                }
            }
        }

        private void end(String[] f, List<CommandSet.Spec> all, long limit) {
            int eid = id(f, st);
            if (eid < 0 || eid != id || out == null || err == null || f.length < 6) return;
            CommandSet.Spec spec = all.get(eid);
            int rc = (int) parse(f[2]);
            long ms = parse(f[3]);
            boolean timed = f[4].equals("1");
            String so = out.text(), se = err.text();
            ExecResult r;
            if (timed) r = new ExecResult(CommandResult.TIMEOUT, -1, so, "timed out after " + parse(f[5]) + " s", ms);
            else if (outBytes > limit) r = new ExecResult(CommandResult.FAILED, rc, so, String.format(java.util.Locale.ROOT,
                    "output cut: the command printed %.1f MiB, more than the limit of %d MiB (-Dibaccept.max-file-mib=N)",
                    outBytes / 1048576.0, limit >> 20), ms);
            else r = new ExecResult(rc == 0 ? CommandResult.OK : classify(rc, se), rc, so, se, ms);
            discard();
            st.running = -1;
            st.reported.add(eid);
            if (spec.cmd() == io.ibaccept.dump.Cmd.OPENSM_PROCESS && spec.notHere(r)) st.skipSm = true;
            sink.result(st.node, spec, r);
        }

        private void discard() {
            if (out != null) out.discard();
            if (err != null) err.discard();
            out = err = cur = null;
        }

        private ExecResult skipped(String why) {
            return new ExecResult(CommandResult.TIMEOUT, -1, "", why.strip().equals("hung")
                    ? "not run: " + st.node + " hung on the two previous commands"
                    : "not run: node deadline of " + budget.toSeconds() + " s exceeded", 0);
        }

        private int id(String[] f, NodeState s) {
            if (f.length < 2) return -1;
            long v = parse(f[1]);
            return v >= 0 && v < Integer.MAX_VALUE && s.ids.contains((int) v) ? (int) v : -1;
        }
    }

    /** The command ran on the node itself: the local shell's classification (127: not installed). */
    private static String classify(int exit, String stderr) {
        if (exit == 127 || stderr.contains("command not found")) return CommandResult.MISSING_TOOL;
        return CommandResult.FAILED;
    }

    private static long parse(String s) {
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * One output of one command as it arrives, decoded line by line. Every task may be in the middle of a record at
     * once (48,000 tasks of a large fabric), so at most {@link #IN_MEMORY} bytes are held per task; more go to a file
     * in the step's private directory until the record is complete.
     */
    static final class Capture {
        static final int IN_MEMORY = 8192;
        private final Path dir;
        private final java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        private Path spill;
        private long kept;
        private boolean broken;

        Capture(Path dir) {
            this.dir = dir;
        }

        void add(String base64Line, long limit) {
            if (broken || base64Line.isEmpty()) return;
            byte[] b;
            try {
                b = Base64.getDecoder().decode(base64Line);
            } catch (IllegalArgumentException e) {
                broken = true; // not what the script writes: the record keeps what was decoded before
                return;
            }
            int keep = (int) Math.max(0, Math.min(b.length, limit - kept));
            buf.write(b, 0, keep);
            kept += keep;
            if (buf.size() >= IN_MEMORY && dir != null) {
                try {
                    if (spill == null) spill = Files.createTempFile(dir, "record-", "");
                    Files.write(spill, buf.toByteArray(), java.nio.file.StandardOpenOption.APPEND);
                    buf.reset();
                } catch (IOException e) {
                    // the disk is full: keep it in memory
                }
            }
        }

        String text() {
            byte[] b = buf.toByteArray();
            if (spill != null) {
                try {
                    byte[] head = Files.readAllBytes(spill);
                    byte[] all = java.util.Arrays.copyOf(head, head.length + b.length);
                    System.arraycopy(b, 0, all, head.length, b.length);
                    b = all;
                } catch (IOException e) {
                    // the spilled part is lost; what is in memory is kept
                }
                discard();
            }
            return RawText.decode(b, b.length);
        }

        void discard() {
            if (spill == null) return;
            try {
                Files.deleteIfExists(spill);
            } catch (IOException ignored) {
                // removed with the step's directory
            }
            spill = null;
        }
    }

    /** Lines of ASCII from srun; a line longer than any the script writes is dropped rather than kept whole. */
    private static final class LineReader {
        private final InputStream in;
        private final byte[] buf = new byte[65536];
        private int pos, len;

        LineReader(InputStream in) {
            this.in = in;
        }

        String next() throws IOException {
            StringBuilder sb = new StringBuilder();
            boolean any = false, tooLong = false;
            while (true) {
                if (pos == len) {
                    len = in.read(buf);
                    pos = 0;
                    if (len <= 0) {
                        len = 0;
                        return any ? (tooLong ? "" : sb.toString()) : null;
                    }
                }
                any = true;
                byte c = buf[pos++];
                if (c == '\n') return tooLong ? "" : sb.toString();
                if (sb.length() < 4096) sb.append((char) (c & 0xff));
                else tooLong = true;
            }
        }
    }
}
