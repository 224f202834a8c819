package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.collect.Collector;
import io.ibaccept.model.Hostlist;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.McGroup;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Status;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * End to end: SM configuration read from the fabric, not inferred. opensm on ibsim with its own
 * partitions.conf (per-partition IPoIB MTU, a partition without IPoIB), collected with the real saquery -g and
 * smpquery, judged by mtu.ipoib and pkey. ibsim ports have MtuCap 2048, so mtu=4 (2048) is the ports' MTU there and
 * mtu=3 (1024) is below it; ibsim switches do not keep the PartEnforce bits opensm sets, so they read 0.
 */
@ExtendWith(RequiresSimulator.class)
class ConfigE2ETest {
    static final List<String> NODES = Hostlist.expand("node[01-09]");

    @TempDir
    Path tmp;


    ClusterData collect(SimFabric f) {
        Path dump = tmp.resolve("dump");
        new Collector(f.transport(), new Collector.Options("e2e-config", "node01", 4, false, false, null, null),
                new PrintStream(PrintStream.nullOutputStream())).collect(NODES, dump);
        ClusterData d = DumpLoader.load(dump);
        assertThat(d.problems()).filteredOn(p -> p.kind() == InputProblem.Kind.PARSE_ERROR).isEmpty();
        return d;
    }

    static List<Finding> problems(Report r, String check) {
        return r.findings().stream().filter(x -> x.check().equals(check) && (x.status() == Status.FAIL || x.status() == Status.WARN)).toList();
    }

    @Test
    void partitionBroadcastGroupMtuAndSwitchPortEnforcementAreRead() throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            Path parts = tmp.resolve("partitions.conf");
            // node01 is the fabric node: the SA shows a port only the groups of its own partitions, so it is a member of
            // storage and scratch; project (node05 only) stays invisible from it
            String n01 = SimCapture.portGuid(f, "node01");
            Files.writeString(parts, "Default=0x7fff, ipoib, mtu=4 : ALL=full;\n"
                    + "storage=0x0002, ipoib, mtu=3 : " + n01 + "=full, " + SimCapture.portGuid(f, "node07") + "=full, "
                    + SimCapture.portGuid(f, "node08") + "=full;\n"
                    + "scratch=0x0003 : " + n01 + "=full, " + SimCapture.portGuid(f, "node09") + "=full;\n"
                    + "project=0x0004, ipoib : " + SimCapture.portGuid(f, "node05") + "=full;\n");
            f.startSm("node01", 15, parts, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            ClusterData d = collect(f);
            // what the SA really holds: one IPv4 broadcast group per partition with the 'ipoib' flag
            assertThat(d.fabric().mcGroups()).filteredOn(McGroup::isIpv4Broadcast)
                    .extracting(g -> g.partition() + "=" + g.mtuBytes()).contains("32767=2048", "2=1024")
                    .noneMatch(s -> s.startsWith("3="));
            Path cfgFile = tmp.resolve("site.properties");
            Files.writeString(cfgFile, "memlock.min_kib=0\n");
            Report r = new RulesEngine(RuleConfig.withOverrides(cfgFile)).run(d);
            assertThat(problems(r, "mtu.ipoib")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.WARN);
                assertThat(x.objects()).containsExactly("partition 0x0002");
                assertThat(x.summary()).startsWith("partition 0x0002: IPoIB broadcast group MTU 1024 below 2048").contains("3 member host(s)");
                assertThat(x.evidence().get(0).where()).startsWith("fabric/saquery-g.out:");
                assertThat(x.fix()).contains("mtu=4").contains("restart opensm").contains("ip link set ib0");
            });
            assertThat(r.findings()).filteredOn(x -> x.check().equals("mtu.ipoib") && x.status() == Status.PASS)
                    .anySatisfy(x -> assertThat(x.summary()).contains("no IPoIB broadcast group for partition(s) 0x0003")
                            .contains("not judged: partition(s) 0x0004 (the fabric node node01 is not a member"));
            // the switch ports facing the hosts of storage, scratch and project read PartEnforceInb/Outb 0: its own finding
            assertThat(problems(r, "pkey")).filteredOn(x -> x.summary().contains("read PartEnforceInb/Outb off")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.WARN);
                assertThat(x.objects()).hasSize(5).contains("leaf03 port 1", "leaf03 port 2", "leaf03 port 3");
                assertThat(x.evidence()).allSatisfy(e -> assertThat(e.where()).contains("/smpquery-portinfo-peer.out"));
            });
            assertThat(problems(r, "pkey")).noneMatch(x -> x.status() == Status.FAIL);
        }
    }

    /**
     * A partition whose limited members are written so in partitions.conf (storage clients that reach only the servers)
     * is a design: no P_Key or membership finding. The same subset left limited by default (no '=full', no
     * defmember) is still the pitfall, named.
     */
    @Test
    void aSubsetPartitionLimitedByDesignIsNoFinding() throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            Path parts = tmp.resolve("partitions.conf");
            String n01 = SimCapture.portGuid(f, "node01"), n02 = SimCapture.portGuid(f, "node02"), n03 = SimCapture.portGuid(f, "node03");
            Files.writeString(parts, "Default=0x7fff, ipoib : ALL=full;\n"
                    + "storage=0x0002 : " + n01 + "=full, " + n02 + "=full, " + n03 + "=full, "
                    + SimCapture.portGuid(f, "node04") + "=limited, " + SimCapture.portGuid(f, "node05") + "=limited;\n"
                    + "scratch=0x0003 : " + n01 + "=full, " + n02 + "=full, " + n03 + "=full, "
                    + SimCapture.portGuid(f, "node07") + ", " + SimCapture.portGuid(f, "node08") + ";\n");
            f.startSm("node01", 15, parts, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            ClusterData d = collect(f);
            assertThat(d.hosts().get("node04").pkeys()).contains(0x0002);
            assertThat(d.hosts().get("node07").pkeys()).contains(0x0003);
            Path cfgFile = tmp.resolve("site.properties");
            Files.writeString(cfgFile, "memlock.min_kib=0\n");
            Report r = new RulesEngine(RuleConfig.withOverrides(cfgFile)).run(d);
            List<Finding> partitionFindings = r.findings().stream().filter(x -> x.check().matches("pkey|partitions\\.membership")
                    && (x.status() == Status.FAIL || x.status() == Status.WARN) && !x.variant().startsWith("enforce")).toList();
            assertThat(partitionFindings).as("design: storage 0x0002").noneSatisfy(x -> assertThat(x.summary()).contains("0x0002"));
            assertThat(partitionFindings).as("by default: scratch 0x0003").anySatisfy(x -> assertThat(x.summary()).contains("0x0003")
                    .contains("node07").contains("LIMITED"));
        }
    }
}
