package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.fabric.DumpDiff;
import io.ibaccept.analysis.Analysis;
import io.ibaccept.analysis.AnalysisDiff;
import io.ibaccept.dump.DumpLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnalysisDiffTest {
    @Test
    void sinceHandoverTopologyFirmwareOfedPerftestAndFindings(@TempDir Path tmp) {
        Analysis accepted = Analysis.of(DumpLoader.load(TestDump.demoCopy(tmp.resolve("old")).dir));
        TestDump now = FabricChecksTest.lostUplink(tmp.resolve("new"))
                .replace("nodes/node01/ibstat.out", "Firmware version: 1", "Firmware version: 2")
                .replace("nodes/node01/ofed_info.out", "MLNX_OFED_LINUX-5.8-1.0.1.1", "MLNX_OFED_LINUX-5.9-0.5.6.0")
                .replace("perftest/ib_write_bw__node01__node02.client.out", " 65536      5000           196.53             196.41",
                        " 65536      5000           150.53             150.41");
        List<DumpDiff.Change> changes = AnalysisDiff.compare(accepted, Analysis.of(DumpLoader.load(now.dir)));
        assertThat(changes).extracting(c -> c.category() + " " + c.object() + ": " + c.before() + " -> " + c.after()).contains(
                "cable.removed leaf03 port 20 <-> spine02 port 6: 4X HDR Active -> absent",
                "firmware node01/ibsim0: 1 -> 2",
                "ofed node01: MLNX_OFED_LINUX-5.8-1.0.1.1 -> MLNX_OFED_LINUX-5.9-0.5.6.0",
                "perftest.bw ib_write_bw node01->node02: 196.41 Gb/s -> 150.41 Gb/s");
        assertThat(changes).filteredOn(c -> c.category().equals("finding.new")).extracting(DumpDiff.Change::object)
                .contains("fabric.blocking: leaf03, leaf03 port 20");
        assertThat(changes).filteredOn(c -> c.category().startsWith("cable.") || c.category().startsWith("switch.")).hasSize(1);
        assertThat(changes).allSatisfy(c -> assertThat(c.where()).isNotNull());
        // the same dump twice: nothing changed
        assertThat(AnalysisDiff.compare(accepted, accepted)).isEmpty();
    }

    /**
     * node15's cable pulled (its host still collected, port Polling): "host.down", not "host.removed"; node07's HCA
     * moved from a Gen4 x16 slot to Gen3 x8 and node01's cable replaced are hardware rows of their own, not only new findings.
     */
    @Test
    void hostDownIsNotRemovedAndHardwareChangesAreRowsOfTheirOwn(@TempDir Path tmp) {
        TestDump old = TestDump.demoCopy(tmp.resolve("old"))
                .replace("nodes/node07/mlxlink-pcie.out", "Link Speed Active (Enabled)        : 8G-Gen 3 (16G-Gen 4)", "Link Speed Active (Enabled)        : 16G-Gen 4 (16G-Gen 4)")
                .replace("nodes/node07/mlxlink-pcie.out", "Link Width Active (Enabled)        : 8X (16X)", "Link Width Active (Enabled)        : 16X (16X)");
        TestDump now = TestDump.demoCopy(tmp.resolve("new"))
                .replace("nodes/node01/mlxlink.out", "Vendor Serial Number               : MT1914VS01234", "Vendor Serial Number               : MT2207VS99999");
        String nd = now.read("fabric/ibnetdiscover.out");
        now.write("fabric/ibnetdiscover.out", nd
                .replace("[3]\t\"H-000000000010001c\"[1](10001d) \t\t# \"node15 HCA-1\" lid 21 4xHDR\n", "")
                .replace("vendid=0x0\ndevid=0x0\nsysimgguid=0x10001c\ncaguid=0x10001c\nCa\t1 \"H-000000000010001c\"\t\t# \"node15 HCA-1\"\n"
                        + "[1](10001d) \t\"S-0000000000200005\"[3]\t\t# lid 21 lmc 0 \"leaf04\" lid 9 4xHDR\n\n", ""));
        assertThat(now.read("fabric/ibnetdiscover.out")).doesNotContain("node15");
        String ll = now.read("fabric/iblinkinfo.out");
        now.write("fabric/iblinkinfo.out", ll.replaceAll("(?m)^CA: node15 HCA-1:\n.*\n", "").replaceAll("(?m)^.*\"node15 HCA-1\".*\n", ""));
        now.replace("nodes/node15/ibstat.out", "State: Active", "State: Down").replace("nodes/node15/ibstat.out", "Physical state: LinkUp", "Physical state: Polling");
        Analysis before = Analysis.of(DumpLoader.load(old.dir)), after = Analysis.of(DumpLoader.load(now.dir));
        List<DumpDiff.Change> changes = AnalysisDiff.compare(before, after);
        assertThat(changes).extracting(c -> c.category() + " " + c.object() + ": " + c.before() + " -> " + c.after()).contains(
                "host.down node15 HCA-1: in the fabric -> collected, but its HCA is not in the fabric: port 1 Down (Polling)",
                "pcie node07: Gen4 x16 -> Gen3 x8",
                "cable.serial node01: serial MT1914VS01234 (MCP1650-H002E26) -> serial MT2207VS99999 (MCP1650-H002E26)");
        assertThat(changes).noneMatch(c -> c.category().equals("host.removed"));
        assertThat(changes).filteredOn(c -> c.category().equals("pcie")).extracting(DumpDiff.Change::where).containsExactly("nodes/node07/mlxlink-pcie.out:5");
        assertThat(DumpDiff.sharedGuids(before.fabricGraph(), after.fabricGraph())).isEqualTo(before.fabricGraph().nodes().size() - 1);
    }
}
