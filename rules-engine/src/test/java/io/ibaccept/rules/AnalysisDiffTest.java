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
}
