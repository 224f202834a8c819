package io.ibaccept.rdma;

import io.ibaccept.model.Hostlist;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.collect.Transport;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.IbnetdiscoverParser;
import io.ibaccept.parse.Text;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BurnInTest {
    static final List<String> NODES = Hostlist.expand("node[01-16]");

    static Path res(String name) throws URISyntaxException {
        return Path.of(BurnInTest.class.getResource("/sim/" + name).toURI());
    }

    /** ibnetdiscover of sample-dumps/sim/fattree-16.net on ibsim with node16 unplugged: leaves of 4, 4, 4 and 3 hosts, 2 spines. */
    static Topology topology() throws Exception {
        return IbnetdiscoverParser.parse(new Text("ibnetdiscover.out", Files.readString(res("ibnetdiscover.out"))));
    }

    @Test
    void everyOrderedLeafPairOnceAndNoNodeInTwoTestsOfARound() throws Exception {
        Map<String, String> leafOf = BurnIn.leafOf(topology(), NODES);
        assertThat(leafOf).hasSize(15).containsEntry("node01", "leaf01").containsEntry("node15", "leaf04").doesNotContainKey("node16");
        BurnIn.Plan plan = BurnIn.plan(leafOf, NODES);
        // 3 round-robin rounds of 4 leaves, each in both directions; the leaf pair with leaf04 (3 hosts) needs a second
        // sub-round so that the fourth host of the other leaf runs too
        assertThat(plan.rounds()).hasSize(12);
        assertThat(plan.rounds()).extracting(List::size).containsOnly(4 + 3, 3);
        Set<String> leafPairs = new HashSet<>();
        Map<String, Set<String>> clientsTo = new java.util.HashMap<>(), serversFrom = new java.util.HashMap<>();
        for (List<PairScheduler.Pair> round : plan.rounds()) {
            List<String> busy = new ArrayList<>();
            for (PairScheduler.Pair p : round) {
                busy.add(p.client());
                busy.add(p.server());
                assertThat(leafOf.get(p.client())).isNotEqualTo(leafOf.get(p.server()));
                String lp = leafOf.get(p.client()) + ">" + leafOf.get(p.server());
                leafPairs.add(lp);
                clientsTo.computeIfAbsent(lp, x -> new HashSet<>()).add(p.client());
                serversFrom.computeIfAbsent(lp, x -> new HashSet<>()).add(p.server());
            }
            assertThat(busy).doesNotHaveDuplicates();
        }
        assertThat(leafPairs).hasSize(4 * 3);
        // every host sends to and receives from every other leaf
        for (String lp : leafPairs) {
            String from = lp.substring(0, lp.indexOf('>')), to = lp.substring(lp.indexOf('>') + 1);
            assertThat(clientsTo.get(lp)).as(lp).containsExactlyInAnyOrderElementsOf(leafOf.entrySet().stream().filter(e -> e.getValue().equals(from)).map(Map.Entry::getKey).toList());
            assertThat(serversFrom.get(lp)).as(lp).containsExactlyInAnyOrderElementsOf(leafOf.entrySet().stream().filter(e -> e.getValue().equals(to)).map(Map.Entry::getKey).toList());
        }
        assertThat(plan.unplaced()).containsExactly("node16");
    }

    @Test
    void oneLeafStillLoadsEveryHostAndUnknownHostsAreListed() {
        BurnIn.Plan plan = BurnIn.plan(Map.of("a", "leaf1", "b", "leaf1", "c", "leaf1"), List.of("a", "b", "c", "x"));
        assertThat(plan.unplaced()).containsExactly("x");
        assertThat(plan.rounds().stream().flatMap(List::stream).flatMap(p -> java.util.stream.Stream.of(p.client(), p.server())))
                .contains("a", "b", "c");
    }

    /** Runs the real command lines through bash, answering the fabric tools from captures; node05 is gone. */
    static final class FakeFabric extends Transport {
        final List<String> perftests = new CopyOnWriteArrayList<>();
        final Path discover, ports, sample;

        FakeFabric() throws URISyntaxException {
            discover = res("ibnetdiscover.out");
            ports = res("ibnetdiscover-p.out");
            sample = res("counters-sample.out");
        }

        public String name() {
            return "fake";
        }

        protected List<String> argv(String host, String script) {
            if (host.equals("node05")) return List.of("bash", "-c", "echo 'ssh: connect to host node05 port 22: No route to host' >&2; exit 255");
            String s;
            if (script.equals("ibnetdiscover")) s = "cat '" + discover + "'";
            else if (script.equals("ibnetdiscover -p")) s = "cat '" + ports + "'";
            else if (script.contains("perfquery")) s = "cat '" + sample + "'";
            else if (script.startsWith("ib_write_bw")) {
                perftests.add(host + ": " + script);
                s = "echo";
            } else s = "echo 1000.0 900.0";
            return List.of("bash", "-c", s);
        }
    }

    @Test
    void aNodeThatDropsOutIsRecordedAndTheRestContinue(@TempDir Path tmp) throws Exception {
        FakeFabric f = new FakeFabric();
        BurnIn.Result r = new BurnIn(f, new BurnIn.Options(Duration.ofSeconds(60), "ib_write_bw", null, 18515, "node01", false, Duration.ofSeconds(20)),
                new PrintStream(PrintStream.nullOutputStream())).run(NODES, new DumpWriter(tmp));
        assertThat(r.dropped()).containsOnlyKeys("node05");
        assertThat(r.dropped().get("node05")).startsWith("before round 1").contains("No route to host");
        // 6 rounds of 7 pairs + 6 sub-rounds of 3, minus the 8 pairs node05 (leaf02) is in
        assertThat(r.testsRun()).isEqualTo(6 * 7 + 6 * 3 - 8);
        assertThat(f.perftests).noneMatch(s -> s.contains("node05")).anyMatch(s -> s.contains(" -D 5 "));
        assertThat(r.window().startOk()).isTrue();
        assertThat(r.window().endOk()).isTrue();
        String summary = Files.readString(tmp.resolve("burn/summary.out"));
        assertThat(summary).contains("dropped.node05: before round 1", "rounds: 12", "round.1: ", "leaf.node05: leaf02");
        assertThat(tmp.resolve("fabric/counters-start.out")).exists();
        assertThat(tmp.resolve("fabric/counters-end.out")).exists();
    }
}
