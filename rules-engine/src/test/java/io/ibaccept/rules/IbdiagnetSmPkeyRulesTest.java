package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SMs and partitions of the real 272-node NDR fabric as ibdiagnet reported them (ibdiagnet2.sm, ibdiagnet2.pkey,
 * with ibdiagnet's own topology, from sample-dumps/dumps/real-captures): judged by sm.count, sm.priority and pkey
 * where the dump has no sminfo and no host P_Key tables.
 */
class IbdiagnetSmPkeyRulesTest {
    static final Path REAL = Path.of("..", "sample-dumps", "dumps", "real-captures", "fabric");

    @TempDir
    Path tmp;

    /**
     * A dump of ibdiagnet's files of that fabric, pkey replaced where given, and one real host capture (a dump needs a
     * node: an NDR ConnectX-7 host's ibstat from another cluster, which holds no SM and no P_Key table).
     */
    Path dump(String pkey) throws IOException {
        Path fabric = Files.createDirectories(tmp.resolve("fabric"));
        for (String f : List.of("ibdiagnet2.sm", "ibdiagnet2.pkey", "ibdiagnet2.ibnetdiscover"))
            for (String ext : List.of(".out", ".meta")) Files.copy(REAL.resolve(f + ext), fabric.resolve(f + ext), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path node = Files.createDirectories(tmp.resolve("nodes/h100-gpud"));
        for (String ext : List.of(".out", ".meta"))
            Files.copy(REAL.resolve("../nodes/h100-gpud/ibstat" + ext), node.resolve("ibstat" + ext), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        if (pkey != null) Files.writeString(fabric.resolve("ibdiagnet2.pkey.out"), pkey);
        Files.writeString(tmp.resolve("manifest.txt"), "format: 1\ncluster: ndr-ibdiagnet\ncreated: \ncollector: real captures\nfabric_node: \nnodes: h100-gpud\n");
        return tmp;
    }

    @Test
    void theOneMasterOfIbdiagnet2SmIsJudgedAndNamed() throws IOException {
        Report r = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(dump(null)));
        assertThat(r.findings()).filteredOn(f -> f.check().equals("sm.count")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).startsWith("exactly one master SM: MF0;ib-switch-sequoia:MQM9700/U1").contains("SM lid 180 guid 0xb0cf0e0300d33fc0 priority 12 SMINFO_MASTER");
            assertThat(f.evidence()).extracting(Evidence::where).containsExactly("fabric/ibdiagnet2.sm.out:11");
        });
        assertThat(r.findings()).filteredOn(f -> f.check().equals("sm.priority")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).startsWith("single SM (priority 12)");
        });
        // declared SM nodes: the switch SM is not one of them
        Path cfg = tmp.resolve("rules.properties");
        Files.writeString(cfg, "sm.count.designated=sm01,sm02\n");
        Report declared = new RulesEngine(RuleConfig.withOverrides(cfg)).run(DumpLoader.load(tmp));
        assertThat(TestDump.problems(declared, "sm.count")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).startsWith("master SM is on MF0;ib-switch-sequoia:MQM9700/U1 (lid 180)").endsWith("designated SM nodes: sm01, sm02 (declared)");
        });
    }

    @Test
    void thePartitionsOfIbdiagnet2PkeyAreJudgedPerHost() throws IOException {
        Report r = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(dump(null)));
        // 256 host ports (switch port 0s left out; the SHARP aggregation nodes, without a fabric graph, under their own names)
        assertThat(r.findings()).filteredOn(f -> f.check().equals("pkey")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).startsWith("1 partition(s): 0x7fff ").contains(" full/0 limited").endsWith(" host port(s) from ibdiagnet2.pkey");
        });
        // the same file with hosts made limited members of the default partition (ibdiagnet's word for a port without the
        // membership bit is taken to be "Limited": no capture with one was found)
        String text = Files.readString(REAL.resolve("ibdiagnet2.pkey.out"))
                .replace("  Full is-north-7-compute-2/", "  Limited is-north-7-compute-2/")
                .replace("  Full is-north-7-compute-3/", "  Limited is-north-7-compute-3/");
        Report limited = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(dump(text)));
        assertThat(TestDump.problems(limited, "pkey")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).startsWith("2 host(s) are only LIMITED members (0x7fff) of the default partition");
            assertThat(f.objects()).containsExactly("is-north-7-compute-2", "is-north-7-compute-3");
            assertThat(f.evidence()).extracting(Evidence::where).containsExactly("fabric/ibdiagnet2.pkey.out:22", "fabric/ibdiagnet2.pkey.out:27");
        });
    }
}
