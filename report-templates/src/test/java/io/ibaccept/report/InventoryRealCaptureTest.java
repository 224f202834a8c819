package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.Manifest;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.parse.IbdiagnetParser;
import io.ibaccept.parse.Issues;
import io.ibaccept.parse.Text;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Switch firmware, PSID and device id from a real ibdiagnet2.db_csv (NDR Quantum-2 fabric; see resources/real/SOURCES.md). */
class InventoryRealCaptureTest {
    @Test
    void switchesFromIbdiagnetNodesInfo() throws Exception {
        String name = "fabric/ibdiagnet2.db_csv.out";
        String content;
        try (var in = getClass().getResourceAsStream("/real/ibdiagnet2-ndr-quantum2.db_csv")) {
            content = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // the dump loader reads with collecting issues: the capture's one impossible counter (2^64-40) is one
        // record-level issue with its line, the rest of the file is kept
        Issues issues = Issues.collecting();
        Ibdiagnet.Db db = IbdiagnetParser.db(new Text(name, content), issues);
        assertThat(issues.list()).hasSize(1);
        assertThat(issues.list().get(0).getMessage()).startsWith(name + ":4400:").contains("18446744073709551576");
        ClusterData data = new ClusterData("", new Manifest(1, "ndr", "", "", "", List.of(), Map.of()), Map.of(),
                new FabricData(null, null, null, null, null, null, null, db), List.of(), List.of(), List.of());
        List<Inventory.Item> items = Inventory.items(new ReportFacts(io.ibaccept.analysis.Analysis.of(new io.ibaccept.rules.Report(data, List.of()))));
        // the capture's NODES section has 9 switches (NodeType 2) and 263 CAs
        assertThat(items).filteredOn(i -> i.kind().equals("switch")).hasSize(9);
        Inventory.Item sequoia = items.stream().filter(i -> i.guid().equals("0xb0cf0e0300d33fc0")).findFirst().orElseThrow();
        // NODES_INFO: FWInfo_Extended_Major/Minor/SubMinor 0x1f/0x7dc/0x400, FWInfo_PSID MT_0000000577; NODES line 31
        assertThat(sequoia.device()).isEqualTo("ib-switch-sequoia");
        assertThat(sequoia.description()).isEqualTo("MF0;ib-switch-sequoia:MQM9700/U1");
        assertThat(sequoia.firmware()).isEqualTo("31.2012.1024");
        assertThat(sequoia.psid()).isEqualTo("MT_0000000577");
        assertThat(sequoia.deviceId()).isEqualTo("54002");
        assertThat(sequoia.ports()).isEqualTo(65);
        assertThat(sequoia.source()).isEqualTo(name + ":31");
    }

    @Test
    void firmwareFallsBackToTheClassicFields() {
        Ibdiagnet.Row r = new Ibdiagnet.Row(Map.of("FWInfo_Major", "0x10", "FWInfo_Minor", "0x1b", "FWInfo_SubMinor", "0x7d0",
                "FWInfo_Extended_Major", "0x00000000", "FWInfo_Extended_Minor", "0x00000000", "FWInfo_Extended_SubMinor", "0x00000000"), null);
        assertThat(Inventory.firmware(r)).isEqualTo("16.27.2000");
        assertThat(Inventory.firmware(new Ibdiagnet.Row(Map.of(), null))).isEmpty();
    }
}
