package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.sources.CollectOptions;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 'collect --slurm' in one job step, against a fake srun that launches tasks as Slurm does (FakeSlurm): the number of
 * steps, a dump equal to the one the per-command srun transport writes, and nodes whose task fails, dies or hangs.
 */
class SlurmStepTest {
    static final List<String> NODES = List.of("n1", "n2", "n3", "n4");

    /** The basic tools the collect scripts and the fake srun use; no InfiniBand tool of this machine is reachable. */
    static Path utilities(Path dir) throws IOException {
        Path u = Files.createDirectories(dir.resolve("util-bin"));
        for (String t : List.of("bash", "sh", "timeout", "date", "mktemp", "rm", "wc", "head", "base64", "cat", "grep", "awk", "sed", "sort",
                "tr", "sleep", "flock", "setsid", "pkill", "hostname", "cut", "tail", "mkdir", "env", "uname", "readlink", "ls", "dirname", "basename", "gzip")) {
            for (String d : List.of("/usr/bin/", "/bin/")) {
                Path real = Path.of(d + t);
                if (Files.isExecutable(real)) {
                    tool(u, t, "exec " + real + " \"$@\"\n");
                    break;
                }
            }
        }
        return u;
    }

    static void tool(Path bin, String name, String body) throws IOException {
        Path p = bin.resolve(name);
        Files.writeString(p, "#!/bin/bash\n" + body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    }

    /**
     * Fake InfiniBand tools that answer per node (SLURMD_NODENAME, which srun sets): n3's smpquery fails, n2 has no
     * ofed_info, ibqueryerrors exits 1 with its summary (a result), and no opensm runs anywhere (pgrep is absent).
     */
    static Path tools(Path dir) throws IOException {
        Path b = Files.createDirectories(dir.resolve("ib-bin"));
        tool(b, "ibstat", "[ \"$1\" = -V ] && { echo 'ibstat BUILD VERSION: 50.0'; exit 0; }\n"
                + "printf \"CA 'mlx5_0'\\n\\tCA type: MT4123\\n\\tNumber of ports: 1\\n\\tPort 1:\\n\\t\\tState: Active\\n\\t\\tPort GUID: 0x%s\\n\" \"$SLURMD_NODENAME\"\n");
        tool(b, "smpquery", "[ \"$SLURMD_NODENAME\" = n3 ] && { echo 'ibwarn: [1234] mad_rpc: _do_madrpc failed; dport (Lid 0)' >&2; exit 1; }\n"
                + "echo \"# $* on $SLURMD_NODENAME\"; printf 'LinkState:.......................Active\\n'\n");
        tool(b, "ofed_info", "[ \"$SLURMD_NODENAME\" = n2 ] && { echo 'bash: ofed_info: command not found' >&2; exit 127; }\necho 'MLNX_OFED_LINUX-5.8-1.0.1.1:'\n");
        tool(b, "ibnetdiscover", "[ \"$1\" = -p ] && { echo \"CA     1  1 0x000000000010001c 4x HDR - SW     9  1 0x0000000000200005 ( 'n1 HCA-1' - 'leaf01' )\"; exit 0; }\n"
                + "printf 'Switch\\t36 \"S-0000000000200005\"\\t\\t# \"leaf01\" base port 0 lid 9 lmc 0\\n"
                + "Ca\\t1 \"H-000000000010001c\"\\t\\t# \"n1 HCA-1\"\\n'\n");
        tool(b, "iblinkinfo", "echo 'Switch: 0x0000000000200005 leaf01:'\n");
        tool(b, "ibqueryerrors", "echo; echo '## Summary: 2 nodes checked, 0 bad nodes found'; exit 1\n");
        tool(b, "perfquery", "echo '# Port counters: Lid 1 port 1'\n");
        tool(b, "saquery", "echo \"saquery $*\"\n");
        tool(b, "sminfo", "echo 'sminfo: sm lid 1 sm guid 0x200005, activity count 42 priority 15 state 3 SMINFO_MASTER'\n");
        // far more than a record held in memory while it arrives, with bytes that are not UTF-8
        tool(b, "ucx_info", "[ \"$1\" = -d ] || { echo '# Library version: 1.16.0'; exit 0; }\n"
                + "awk -v n=\"$SLURMD_NODENAME\" 'BEGIN { for (i = 0; i < 20000; i++) printf \"# Transport: rc_mlx5 %d on %s \\351\\n\", i, n }'\n");
        tool(b, "dump_fts", "echo 'Unicast lids [0x0-0x9] of switch Lid 9 guid 0x0000000000200005 (leaf01):'\n");
        return b;
    }

    static Collector collector(Transport t, Duration deadline) {
        return new Collector(t, new Collector.Options("c", "n1", 8, false, false, null, null, deadline),
                new PrintStream(PrintStream.nullOutputStream()));
    }

    /**
     * Every file of the dump by path: content, with the times of a run (.meta duration and start, manifest created) left
     * out, and srun's own report of a task's exit ("srun: error: n1: task 0: Exited with exit code 127"), which the
     * per-command transport finds on the stderr it records and a task of the single step does not (an .err holding
     * only that is no file).
     */
    static Map<String, String> files(Path dump) throws IOException {
        try (Stream<Path> s = Files.walk(dump)) {
            return s.filter(Files::isRegularFile).filter(p -> !srunOnly(p)).collect(Collectors.toMap(p -> dump.relativize(p).toString(), p -> {
                try {
                    String text = Files.readString(p, java.nio.charset.StandardCharsets.ISO_8859_1); // byte for byte
                    return text.lines().filter(l -> !l.startsWith("duration_ms:") && !l.startsWith("started:") && !l.startsWith("created:"))
                            .filter(l -> !l.startsWith("srun: error: ")).collect(Collectors.joining("\n"));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, (a, b) -> a, TreeMap::new));
        }
    }

    private static boolean srunOnly(Path p) {
        try {
            return p.toString().endsWith(".err") && Files.readString(p, java.nio.charset.StandardCharsets.ISO_8859_1).lines().allMatch(l -> l.startsWith("srun: error: "));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void oneStepForEveryNodeGivesTheDumpOfOneStepPerCommand(@TempDir Path tmp) throws Exception {
        FakeSlurm slurm = new FakeSlurm(tmp);
        String path = tools(tmp) + ":" + utilities(tmp);
        slurm.allocate(NODES, path, Map.of());
        Path srun = slurm.bin.resolve("srun");

        Path perCommand = tmp.resolve("per-command");
        collector(new Transports.Srun(List.of(), srun.toString(), false), Duration.ofSeconds(120)).collect(NODES, perCommand);
        int perCommandSteps = slurm.calls().size();
        Files.delete(slurm.log);

        Path oneStep = tmp.resolve("one-step");
        collector(new Transports.Srun(List.of(), srun.toString()), Duration.ofSeconds(120)).collect(NODES, oneStep);
        List<List<String>> calls = slurm.calls();

        // one step for every node's own commands, then the fabric node's: ibstat -V and one per fabric-wide query
        int fabric = CommandSet.fabric(CollectOptions.DEFAULTS).size();
        assertThat(calls).hasSize(1 + 1 + fabric);
        assertThat(calls).filteredOn(a -> a.contains("--label")).singleElement().satisfies(a -> {
            assertThat(a).contains("--nodes=4", "--ntasks=4", "--ntasks-per-node=1", "--kill-on-bad-exit=0", "--wait=0", "--overlap");
            assertThat(a.stream().filter(x -> x.startsWith("--nodelist=/"))).hasSize(1);
            // the script is one argument: Linux refuses one above 128 KiB (MAX_ARG_STRLEN), whatever the node count
            assertThat(a.get(a.size() - 1).length()).isLessThan(100 * 1024);
        });
        assertThat(calls).filteredOn(a -> !a.contains("--label")).allSatisfy(a -> assertThat(a).containsSubsequence("-w", "n1"));
        int perNode = CommandSet.perNode(CollectOptions.DEFAULTS).size();
        assertThat(perCommandSteps).isGreaterThanOrEqualTo(NODES.size() * perNode + fabric);

        Map<String, String> expected = files(perCommand), actual = files(oneStep);
        assertThat(actual.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
        assertThat(actual).isEqualTo(expected);
        // the fakes really ran per node: n3's failure, n2's missing tool, the others' outputs
        ClusterData d = DumpLoader.load(oneStep);
        assertThat(d.problemsFor("n3", "smpquery-portinfo")).singleElement()
                .satisfies(p -> assertThat(p.message()).contains("_do_madrpc failed"));
        assertThat(d.problemsFor("n2", "ofed_info")).singleElement().satisfies(p -> assertThat(p.kind()).isEqualTo(InputProblem.Kind.TOOL_MISSING));
        assertThat(Files.readString(oneStep.resolve("nodes/n4/ibstat.out"))).contains("Port GUID: 0xn4");
        assertThat(Files.size(oneStep.resolve("nodes/n2/ucx_info-d.out"))).isGreaterThan(20 * SlurmStep.Capture.IN_MEMORY);
        assertThat(Files.readAllBytes(oneStep.resolve("nodes/n2/ucx_info-d.out"))).isEqualTo(Files.readAllBytes(perCommand.resolve("nodes/n2/ucx_info-d.out")));
        assertThat(Files.readString(oneStep.resolve("manifest.txt"))).contains("state: complete", "tool.infiniband-diags: ibstat BUILD VERSION: 50.0");
        // the forwarding tables come compressed from the fabric node, stored as they arrive
        assertThat(oneStep.resolve("fabric/dump_fts.out")).doesNotExist();
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(oneStep.resolve("fabric/dump_fts.out.gz")))) {
            assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII))
                    .isEqualTo("Unicast lids [0x0-0x9] of switch Lid 9 guid 0x0000000000200005 (leaf01):\n");
        }
        assertThat(d.problemsFor(null, "dump_fts")).allSatisfy(p -> assertThat(p.file()).isEqualTo("fabric/dump_fts.out.gz"))
                .anySatisfy(p -> assertThat(p.message()).contains("ends without its 'lids dumped' line"));
    }

    @Test
    void aNodeWhoseTaskFailsDiesOrHangsGetsErrorRecordsAndTheOthersTheirOutputs(@TempDir Path tmp) throws Exception {
        FakeSlurm slurm = new FakeSlurm(tmp);
        Path ib = tools(tmp);
        // n2: ofed_info hangs (the per-command timeout and the node deadline inside the script end it)
        tool(ib, "ofed_info", "[ \"$SLURMD_NODENAME\" = n2 ] && exec sleep 1000\necho 'MLNX_OFED_LINUX-5.8-1.0.1.1:'\n");
        // n4: ibstat runs long, and the node's task is killed meanwhile
        tool(ib, "ibstat", "[ \"$1\" = -V ] && { echo 'ibstat BUILD VERSION: 50.0'; exit 0; }\n[ \"$SLURMD_NODENAME\" = n4 ] && sleep 60\n"
                + "echo \"CA 'mlx5_0' on $SLURMD_NODENAME\"\n");
        List<String> nodes = List.of("n1", "n2", "n3", "n4", "n5");
        // n3: no task can be launched; n5: the task's output stops after its first record and it never ends
        slurm.allocate(nodes, ib + ":" + utilities(tmp), Map.of("FAKE_DOWN", "n3", "FAKE_KILL", "n4:3", "FAKE_STALL", "n5:4"));
        Path out = tmp.resolve("dump");
        long t0 = System.nanoTime();
        collector(new Transports.Srun(List.of(), slurm.bin.resolve("srun").toString()), Duration.ofSeconds(25)).collect(nodes, out);
        double took = (System.nanoTime() - t0) / 1e9;
        // the node deadline (25 s) plus the step's grace (10 s) bounds the hung node, with room for a loaded machine
        assertThat(took).isLessThan(90);
        ClusterData d = DumpLoader.load(out);

        assertThat(Files.readString(out.resolve("nodes/n1/ofed_info.out"))).contains("MLNX_OFED_LINUX-5.8");
        assertThat(d.problems()).filteredOn(p -> "n1".equals(p.host())).noneMatch(p -> p.kind() == InputProblem.Kind.TIMEOUT
                || p.kind() == InputProblem.Kind.UNREACHABLE);

        assertThat(d.problemsFor("n2", "ofed_info")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.TIMEOUT);
            assertThat(p.message()).contains("timed out after");
        });
        assertThat(d.problems()).filteredOn(p -> "n2".equals(p.host()) && p.message().contains("not run: node deadline of 25 s exceeded")).isNotEmpty();
        assertThat(Files.readString(out.resolve("nodes/n2/ibstat.out"))).contains("on n2");

        assertThat(d.problemsFor("n3", "ibstat")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.UNREACHABLE);
            assertThat(p.message()).contains("no task of the job step ran on n3", "srun: error: Task launch for StepId=42.", "failed on node n3");
        });
        assertThat(Files.exists(out.resolve("nodes/n3/ulimit-l.meta"))).isTrue();

        assertThat(d.problemsFor("n4", "ibstat")).singleElement().satisfies(p -> {
            assertThat(p.kind()).as(p.message()).isEqualTo(InputProblem.Kind.COMMAND_FAILED);
            assertThat(p.message()).contains("ended while this ran", "n4: task", "Killed");
        });
        assertThat(d.problemsFor("n4", "ulimit-l")).singleElement().satisfies(p -> assertThat(p.kind()).isEqualTo(InputProblem.Kind.UNREACHABLE));

        assertThat(d.problems()).as("%s", d.problems().stream().filter(p -> "n5".equals(p.host())).toList())
                .filteredOn(p -> "n5".equals(p.host()) && p.kind() == InputProblem.Kind.TIMEOUT).isNotEmpty();
        assertThat(d.problemsFor("n5", "ibstat")).singleElement().satisfies(p ->
                assertThat(p.message()).contains("did not finish within the node deadline of 25 s"));
        assertThat(Files.readString(out.resolve("manifest.txt"))).contains("state: complete");
        // every node has a record for every one of its commands; where opensm was not looked for, the SM files too
        // (as Collector.series records them), n1 found none and records no SM file
        int perNode = CommandSet.perNode(CollectOptions.DEFAULTS).size(), sm = CommandSet.smConfig(CollectOptions.DEFAULTS).size();
        for (String n : nodes) {
            try (Stream<Path> s = Files.list(out.resolve("nodes/" + n))) {
                assertThat(s.filter(p -> p.toString().endsWith(".meta")).count()).as(n).isEqualTo(n.equals("n1") ? perNode : perNode + sm);
            }
        }
    }

    @Test
    void theCounterWindowReadsEveryNodesUptimeInOneStep(@TempDir Path tmp) throws Exception {
        FakeSlurm slurm = new FakeSlurm(tmp);
        slurm.allocate(NODES, tools(tmp) + ":" + utilities(tmp), Map.of());
        Path out = tmp.resolve("dump");
        collector(new Transports.Srun(List.of(), slurm.bin.resolve("srun").toString()), Duration.ofSeconds(120))
                .only(java.util.Set.of(io.ibaccept.dump.Cmd.ULIMIT))
                .withCounterWindow(new CounterWindow.Options(Duration.ofSeconds(1), false)).collect(NODES, out);
        List<List<String>> steps = slurm.calls().stream().filter(a -> a.contains("--label")).toList();
        // the nodes' own commands and their uptimes: one step each, none per node
        assertThat(steps).hasSize(2).allSatisfy(a -> assertThat(a).contains("--nodes=4"));
        assertThat(slurm.calls()).noneMatch(a -> !a.contains("--label") && a.get(a.size() - 1).contains("/proc/uptime"));
        for (String n : NODES) assertThat(Files.readString(out.resolve("nodes/" + n + "/uptime.meta"))).contains("status: ok");
        assertThat(Files.exists(out.resolve("fabric/counters-end.meta"))).isTrue();
    }

    @Test
    void theFabricNodesDeadlineFollowsTheFabric() {
        FabricBudget.Size small = FabricBudget.Size.of("Switch\t36 \"S-1\"\t\t# \"leaf01\"\nCa\t1 \"H-1\"\t\t# \"n1 HCA-1\"\n");
        assertThat(small).isEqualTo(new FabricBudget.Size(1, 36, 1));
        // 2,000 switches and 40,000 CA ports: dump_fts sends one SMP per 64 LIDs per switch, 2,000 x 657
        FabricBudget.Size large = new FabricBudget.Size(2000, 2000 * 40, 40_000);
        assertThat(FabricBudget.mads(io.ibaccept.dump.Cmd.DUMP_FTS, large)).isEqualTo(2 * 120_000 + 2000L * 657);
        List<CommandSet.Spec> fabric = CommandSet.fabric(CollectOptions.DEFAULTS);
        FabricBudget b = new FabricBudget(Duration.ofSeconds(300), fabric, large);
        CommandSet.Spec dumpFts = fabric.stream().filter(s -> s.cmd() == io.ibaccept.dump.Cmd.DUMP_FTS).findFirst().orElseThrow();
        assertThat(b.timeout(dumpFts)).isGreaterThan(dumpFts.timeout());
        assertThat(b.total()).isGreaterThan(Duration.ofSeconds(300).plus(b.timeout(dumpFts)));
        // a small fabric keeps the descriptors' timeouts; its deadline stays near the node deadline
        FabricBudget s = new FabricBudget(Duration.ofSeconds(300), fabric, small);
        assertThat(s.timeout(dumpFts)).isEqualTo(dumpFts.timeout());
        assertThat(s.total()).isLessThan(Duration.ofSeconds(310));
        // this run's ibnetdiscover replaces the estimate
        FabricBudget e = new FabricBudget(Duration.ofSeconds(300), fabric, FabricBudget.Size.estimate(2000));
        CommandSet.Spec ibnd = fabric.stream().filter(x -> x.cmd() == io.ibaccept.dump.Cmd.IBNETDISCOVER).findFirst().orElseThrow();
        e.ran(ibnd, new ExecResult(io.ibaccept.dump.CommandResult.OK, 0, "Switch\t36 \"S-1\"\nCa\t1 \"H-1\"\n", "", 1));
        assertThat(e.size()).isEqualTo(small);
    }
}
