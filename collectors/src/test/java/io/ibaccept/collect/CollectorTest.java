package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.sources.CollectOptions;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CollectorTest {
    /** Answers like a small cluster: n3 is unreachable, n2 has no ofed_info, ibqueryerrors reports errors (exit 1). */
    /**
     * A transport of scripted answers: what a command would print to a stream (the compressed forwarding tables) comes
     * from the same answer, handed to the stream as a command's stdout would be.
     */
    abstract static class Fake extends Transport {
        @Override
        public ExecResult run(String host, String script, Duration timeout, StdoutSink sink) {
            ExecResult r = run(host, script, timeout);
            try {
                sink.take(new java.io.ByteArrayInputStream(r.stdout().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return new ExecResult(r.status(), r.exitCode(), "", r.stderr(), r.durationMs());
        }
    }

    static final class Scripted extends Fake {
        final Set<String> calls = ConcurrentHashMap.newKeySet();
        final AtomicInteger concurrent = new AtomicInteger(), maxConcurrent = new AtomicInteger();

        public String name() {
            return "scripted";
        }

        protected List<String> argv(String host, String script) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ExecResult run(String host, String script, Duration timeout) {
            calls.add(host + " " + script);
            int c = concurrent.incrementAndGet();
            maxConcurrent.accumulateAndGet(c, Math::max);
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            concurrent.decrementAndGet();
            if (host.equals("n3")) return new ExecResult(CommandResult.UNREACHABLE, 255, "", "ssh: connect to host n3 port 22: No route to host", 3000);
            if (script.equals("ulimit -l")) return new ExecResult(CommandResult.OK, 0, "unlimited\n", "", 1);
            if (script.startsWith("ofed_info")) return host.equals("n2")
                    ? new ExecResult(CommandResult.MISSING_TOOL, 127, "", "bash: ofed_info: command not found", 1)
                    : new ExecResult(CommandResult.OK, 0, "MLNX_OFED_LINUX-5.8-1.0.1.1:\n", "", 1);
            if (script.equals("ibqueryerrors")) return new ExecResult(CommandResult.FAILED, 1, "\n## Summary: 2 nodes checked, 0 bad nodes found\n", "", 1);
            return new ExecResult(CommandResult.FAILED, 1, "", "ibwarn: not simulated", 1);
        }
    }

    @Test
    void aHungNodeStopsAfterTwoTimeoutsAndTheOthersFinish(@TempDir Path dir) {
        Set<String> h2calls = ConcurrentHashMap.newKeySet();
        Transport t = new Fake() {
            public String name() {
                return "hung";
            }

            protected List<String> argv(String host, String script) {
                throw new UnsupportedOperationException();
            }

            @Override
            public ExecResult run(String host, String script, Duration timeout) {
                if (!host.equals("h2")) return new ExecResult(CommandResult.OK, 0, "unlimited\n", "", 1);
                h2calls.add(script);
                return new ExecResult(CommandResult.TIMEOUT, -1, "", "timed out after " + timeout.toSeconds() + " s", timeout.toMillis());
            }
        };
        new Collector(t, new Collector.Options("c", "h1", 4, false, false, null, null, Duration.ofSeconds(60)),
                new PrintStream(PrintStream.nullOutputStream())).collect(List.of("h1", "h2"), dir);
        ClusterData d = DumpLoader.load(dir);
        // two commands were really tried on h2; the rest are recorded as not run
        assertThat(h2calls).hasSize(2);
        assertThat(d.problemsFor("h2", "smpquery-pkeys")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.TIMEOUT);
            assertThat(p.message()).contains("not run: h2 hung on the two previous commands");
        });
        assertThat(d.hosts().get("h1").memlockKib()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void nodeDeadlineCapsTheTimeOneNodeTakes(@TempDir Path dir) {
        Transport t = new Fake() {
            public String name() {
                return "slow";
            }

            protected List<String> argv(String host, String script) {
                return List.of("sleep", "0.7");
            }
        };
        long t0 = System.nanoTime();
        new Collector(t, new Collector.Options("c", "h1", 2, false, false, null, null, Duration.ofSeconds(2)),
                new PrintStream(PrintStream.nullOutputStream())).collect(List.of("h1"), dir);
        ClusterData d = DumpLoader.load(dir);
        assertThat(d.problems()).filteredOn(p -> "h1".equals(p.host()) && p.message().contains("node deadline of 2 s exceeded")).isNotEmpty();
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(20);
    }

    @Test
    void collectsEveryNodeRecordsFailuresAndStopsOnUnreachableHosts(@TempDir Path dir) {
        Scripted t = new Scripted();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        new Collector(t, new Collector.Options("c1", "n1", 2, false, false, null, null), new PrintStream(progress))
                .collect(List.of("n1", "n2", "n3"), dir);
        ClusterData d = DumpLoader.load(dir);
        assertThat(d.manifest().cluster()).isEqualTo("c1");
        assertThat(d.manifest().fabricNode()).isEqualTo("n1");
        assertThat(d.hosts().get("n1").memlockKib()).isEqualTo(Long.MAX_VALUE);
        assertThat(d.hosts().get("n1").ofedVersion()).isEqualTo("MLNX_OFED_LINUX-5.8-1.0.1.1");
        assertThat(d.problemsFor("n2", "ofed_info")).singleElement().satisfies(p -> assertThat(p.kind()).isEqualTo(InputProblem.Kind.TOOL_MISSING));
        // the unreachable host is tried once, then every command is recorded as unreachable without retrying
        assertThat(t.calls.stream().filter(c -> c.startsWith("n3 "))).hasSize(1);
        assertThat(d.problemsFor("n3", "ibstat")).singleElement().satisfies(p -> assertThat(p.kind()).isEqualTo(InputProblem.Kind.UNREACHABLE));
        assertThat(d.problemsFor("n3", "ulimit-l")).singleElement().satisfies(p -> assertThat(p.kind()).isEqualTo(InputProblem.Kind.UNREACHABLE));
        // ibqueryerrors' exit 1 with a summary is a result, not a failure
        assertThat(d.fabric().errorCounters()).isEmpty();
        assertThat(t.maxConcurrent.get()).isLessThanOrEqualTo(2);
        assertThat(progress.toString()).contains("n2").contains("missing-tool").contains("collected");
        assertThat(Files.exists(dir.resolve("nodes/n3/ibstat.meta"))).isTrue();
        // the progress counts to the number of commands that really run (the SM snippets every node runs included)
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\[\\s*(\\d+)/(\\d+)\\]").matcher(progress.toString());
        int last = 0, total = -1;
        while (m.find()) {
            last = Math.max(last, Integer.parseInt(m.group(1)));
            if (total >= 0) assertThat(Integer.parseInt(m.group(2))).isEqualTo(total);
            total = Integer.parseInt(m.group(2));
        }
        assertThat(last).isEqualTo(total).isEqualTo(d.commands().size());
    }

    @Test
    void aRecollectOfSomeOutputsKeepsTheEarlierOutputsCurrent(@TempDir Path dir) throws Exception {
        new Collector(new Scripted(), new Collector.Options("c1", "n1", 2, false, false, null, null), new PrintStream(PrintStream.nullOutputStream()))
                .collect(List.of("n1", "n2"), dir);
        io.ibaccept.dump.Manifest first = DumpLoader.load(dir).manifest();
        Thread.sleep(20); // the re-collect's outputs are later than the first collection's start
        new Collector(new Scripted(), new Collector.Options("c1", "n1", 2, false, false, null, null), new PrintStream(PrintStream.nullOutputStream()))
                .only(Set.of(io.ibaccept.dump.Cmd.ULIMIT)).extending(first).collect(List.of("n1"), dir);
        ClusterData d = DumpLoader.load(dir);
        // the manifest still says when the collection began and lists both nodes: n2's outputs are not "left from an earlier collection"
        assertThat(d.manifest().created()).isEqualTo(first.created());
        assertThat(d.manifest().nodes()).containsExactly("n1", "n2");
        assertThat(d.problems()).noneMatch(p -> p.message().startsWith("left from an earlier collection"));
        assertThat(d.hosts().get("n2").memlockKib()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aLinkPlantedInTheDumpIsNotWrittenThrough(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("dump"));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Path secret = Files.writeString(tmp.resolve("secret"), "keep\n");
        Files.createDirectories(dir.resolve("nodes"));
        Files.createSymbolicLink(dir.resolve("nodes/n1"), elsewhere);
        Files.createSymbolicLink(dir.resolve("manifest.txt"), secret);
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        new Collector(new Scripted(), new Collector.Options("c1", "n2", 2, false, false, null, null), new PrintStream(progress))
                .collect(List.of("n1", "n2"), dir);
        assertThat(elsewhere).isEmptyDirectory();
        assertThat(secret).hasContent("keep");
        assertThat(progress.toString()).contains("nodes/n1 is a symbolic link: not written through");
        ClusterData d = DumpLoader.load(dir);
        // the other node is collected; the refused one is missing from the dump, not read through the link
        assertThat(d.hosts().get("n2").memlockKib()).isEqualTo(Long.MAX_VALUE);
        assertThat(d.problemsFor("n1", "ulimit-l")).isNotEmpty();
    }

    /**
     * 40 healthy hosts printing more than a pipe buffer on both streams, and one host whose commands hang, all at once
     * through real processes. Every healthy output must be complete and ok (the module's tests run with
     * -XX:ActiveProcessorCount=8, where draining on the shared pool used to starve).
     */
    @Test
    void oneHungHostAmongManyHealthyOnesLosesNoHealthyOutput(@TempDir Path dir) throws Exception {
        Transport t = new Fake() {
            public String name() {
                return "fake-nodes";
            }

            protected List<String> argv(String host, String script) {
                if (host.equals("hung")) return List.of("sleep", "600");
                return List.of("bash", "-c", "head -c 100000 /dev/zero | tr '\\0' x; echo; head -c 70000 /dev/zero | tr '\\0' e >&2; echo unlimited");
            }
        };
        List<String> nodes = new java.util.ArrayList<>();
        // the node deadline is generous: the healthy nodes' ~1,000 commands took more than 75 s on a 2-core machine at load 10
        for (int i = 1; i <= 40; i++) nodes.add(String.format("cn%04d", i));
        nodes.add(20, "hung");
        new Collector(t, new Collector.Options("c", "cn0001", 41, false, false, null, null, Duration.ofSeconds(150)),
                new PrintStream(PrintStream.nullOutputStream())).collect(nodes, dir);
        ClusterData d = DumpLoader.load(dir);
        List<CommandResult> healthy = d.commands().stream().filter(c -> !c.host().equals("hung")).toList();
        // the per-node commands plus the SM-configuration snippets, which this fake answers on every node, and the fabric's
        assertThat(healthy).hasSize(40 * (CommandSet.perNode(CollectOptions.DEFAULTS).size() + CommandSet.smConfig(CollectOptions.DEFAULTS).size())
                + CommandSet.fabric(CollectOptions.DEFAULTS).size());
        assertThat(healthy.stream().filter(c -> !c.ok()).map(c -> c.host() + " " + c.name() + " " + c.status() + " after "
                + c.durationMs() + " ms: " + c.stderr().substring(0, Math.min(80, c.stderr().length())))).isEmpty();
        assertThat(Files.readString(dir.resolve("nodes/cn0033/ibstat.out"))).hasSize(100_000 + 1 + "unlimited\n".length());
        assertThat(d.hosts().get("cn0040").memlockKib()).isEqualTo(Long.MAX_VALUE);
        // the hung host's first command used up its deadline; nothing else was tried there
        assertThat(d.problemsFor("hung", "ibstat")).singleElement().satisfies(p -> assertThat(p.kind()).isEqualTo(InputProblem.Kind.TIMEOUT));
        assertThat(d.problemsFor("hung", "ulimit-l")).singleElement().satisfies(p -> assertThat(p.message()).contains("not run: "));
    }

    @Test
    void aHungFabricNodeIsGivenUpOnLikeAnyNode(@TempDir Path dir) {
        Set<String> fabricCalls = ConcurrentHashMap.newKeySet();
        Transport t = new Fake() {
            public String name() {
                return "hung-fabric";
            }

            protected List<String> argv(String host, String script) {
                throw new UnsupportedOperationException();
            }

            @Override
            public ExecResult run(String host, String script, Duration timeout) {
                if (host.equals("fab") && !script.startsWith("ibstat")) {
                    fabricCalls.add(script);
                    return new ExecResult(CommandResult.TIMEOUT, -1, "", "timed out", timeout.toMillis());
                }
                return new ExecResult(CommandResult.OK, 0, "unlimited\n", "", 1);
            }
        };
        new Collector(t, new Collector.Options("c", "fab", 4, false, true, null, null, Duration.ofSeconds(60)),
                new PrintStream(PrintStream.nullOutputStream())).collect(List.of("n1"), dir);
        // ibnetdiscover and iblinkinfo hung: the other fabric commands are not tried
        assertThat(fabricCalls).hasSize(2);
        ClusterData d = DumpLoader.load(dir);
        assertThat(d.problemsFor(null, "ibqueryerrors")).singleElement()
                .satisfies(p -> assertThat(p.message()).contains("not run: fab hung on the two previous commands"));
    }

    @Test
    void theManifestSaysPartialUntilTheLastOutputIsWritten(@TempDir Path dir) throws Exception {
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch blocked = new java.util.concurrent.CountDownLatch(1);
        Transport t = new Fake() {
            public String name() {
                return "watching";
            }

            protected List<String> argv(String host, String script) {
                throw new UnsupportedOperationException();
            }

            @Override
            public ExecResult run(String host, String script, Duration timeout) {
                try {
                    seen.add(Files.readString(dir.resolve("manifest.txt")));
                    if (host.equals("n2") && script.equals("ulimit -l")) {
                        blocked.countDown();
                        Thread.sleep(60_000); // "Ctrl-C" arrives while this runs
                    }
                } catch (Exception e) {
                    Thread.currentThread().interrupt();
                }
                return new ExecResult(CommandResult.OK, 0, "unlimited\n", "", 1);
            }
        };
        List<String> thrown = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread run = new Thread(() -> {
            try {
                new Collector(t, new Collector.Options("c", "n1", 4, false, false, null, null),
                        new PrintStream(PrintStream.nullOutputStream())).collect(List.of("n1", "n2"), dir);
            } catch (IllegalStateException e) {
                thrown.add(e.getMessage());
            }
        });
        run.start();
        assertThat(blocked.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        run.interrupt();
        run.join(30_000);
        assertThat(seen).allSatisfy(m -> assertThat(m).contains("state: partial"));
        assertThat(thrown).singleElement().satisfies(m -> assertThat(m).startsWith("collection interrupted"));
        ClusterData d = DumpLoader.load(dir);
        assertThat(d.problemsFor(null, "manifest")).singleElement()
                .satisfies(p -> assertThat(p.message()).startsWith("the collection that wrote this dump did not finish"));
    }
}
