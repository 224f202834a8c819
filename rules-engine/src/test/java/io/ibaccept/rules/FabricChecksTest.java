package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.fabric.CablingPlan;
import io.ibaccept.fabric.FabricOptions;
import io.ibaccept.fabric.NodeNameMap;
import io.ibaccept.parse.Text;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** fabric.tree / fabric.blocking / fabric.plan on the demo dump, as captured and with ISL faults edited in. */
class FabricChecksTest {
    static List<Finding> of(Report r, String check) {
        return r.findings().stream().filter(f -> f.check().equals(check)).toList();
    }

    /** The plan of the demo fabric (sample-dumps/sim/fattree-16.net): each leaf ports 17,18 to spine01, 19,20 to spine02. */
    static String plan() {
        StringBuilder sb = new StringBuilder("switch,port,peer,peer_port,cable_id\n");
        for (int l = 1; l <= 4; l++) {
            sb.append(String.format("leaf%02d,17,spine01,%d,A%d%n", l, 2 * l - 1, l));
            sb.append(String.format("leaf%02d,18,spine01,%d,B%d%n", l, 2 * l, l));
            sb.append(String.format("leaf%02d,19,spine02,%d,C%d%n", l, 2 * l - 1, l));
            sb.append(String.format("leaf%02d,20,spine02,%d,D%d%n", l, 2 * l, l));
        }
        return sb.toString();
    }

    @Test
    void demoDumpIsAHealthyTwoLevelTree() {
        Report r = new RulesEngine(RuleConfig.defaults()).run(new DumpFacts(DumpLoader.load(TestDump.DEMO), RuleConfig.defaults(),
                new FabricOptions(null, CablingPlan.parse(new Text("plan.csv", plan())))));
        assertThat(of(r, "fabric.tree")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).isEqualTo("2-level fat tree: 2 spines, 4 leaves, 15 hosts; theoretical bisection bandwidth 1375 Gb/s");
        });
        assertThat(of(r, "fabric.blocking")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).isEqualTo("4 leaves and their spines within 1:1 (worst 1:1)");
        });
        assertThat(of(r, "fabric.plan")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).isEqualTo("all 16 planned cables are where plan.csv says");
        });
    }

    @Test
    void noPlanSkipsThePlanCheckOnly() {
        Report r = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(TestDump.DEMO));
        assertThat(of(r, "fabric.plan")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.SKIP);
            assertThat(f.summary()).contains("--expect PLAN");
        });
    }

    /** leaf03 port 20 <-> spine02 port 6 unplugged after the capture: removed from ibnetdiscover, Down/Polling in iblinkinfo. */
    static TestDump lostUplink(Path tmp) {
        return TestDump.demoCopy(tmp)
                .replace("fabric/ibnetdiscover.out", "[20]\t\"S-0000000000200001\"[6]\t\t# \"spine02\" lid 3 4xHDR\n", "")
                .replace("fabric/ibnetdiscover.out", "[6]\t\"S-0000000000200004\"[20]\t\t# \"leaf03\" lid 7 4xHDR\n", "")
                .replace("fabric/iblinkinfo.out", "7   20[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       3    6[  ] \"spine02\" (Could be 12X )",
                        "7   20[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )")
                .replace("fabric/iblinkinfo.out", "3    6[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       7   20[  ] \"leaf03\" (Could be 12X )",
                        "3    6[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )");
    }

    @Test
    void lostUplinkIsOneBlockingFindingNamingBothEnds(@TempDir Path tmp) {
        Report r = lostUplink(tmp).analyze();
        assertThat(of(r, "fabric.blocking")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.objects()).containsExactly("leaf03", "leaf03 port 20");
            assertThat(f.summary()).isEqualTo("leaf03 has 3 active uplinks, its peers 4: missing leaf03 port 20 (Down/Polling); "
                    + "uplinks missing 1 to spine02 (spine02 port 6 Down/Polling is down); blocking 1.17:1, allowed 1:1");
            // 1.17: node11 runs at EDR, so leaf03 sends 700 Gb/s down over 600 Gb/s up
            assertThat(f.fix()).startsWith("Reseat or replace the cable(s) at leaf03 port 20");
            assertThat(f.evidence()).anySatisfy(e -> assertThat(e.where()).matches("fabric/iblinkinfo.out:\\d+"));
        });
        assertThat(of(r, "fabric.tree")).singleElement().satisfies(f -> assertThat(f.status()).isEqualTo(Status.PASS));
    }

    @Test
    void lostUplinkAgainstThePlanAndWithANodeNameMap(@TempDir Path tmp) {
        NodeNameMap names = NodeNameMap.parse(new Text("names", "0x0000000000200004 \"rack3-leaf03\"\nnot a guid line\n"));
        String plan = plan().replace("leaf03,", "rack3-leaf03,");
        Report r = new RulesEngine(RuleConfig.defaults()).run(new DumpFacts(DumpLoader.load(lostUplink(tmp).dir), RuleConfig.defaults(),
                new FabricOptions(names, CablingPlan.parse(new Text("plan.csv", plan)))));
        assertThat(of(r, "fabric.plan")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).isEqualTo("rack3-leaf03 port 20 <-> spine02 port 6 (cable D3) is not connected: "
                    + "rack3-leaf03 port 20 Down/Polling, spine02 port 6 Down/Polling");
            assertThat(f.fix()).startsWith("Connect (or reseat/replace) the cable D3 between rack3-leaf03 port 20 and spine02 port 6");
        });
        // the blocking finding names the planned peer of the lost uplink, and is listed under the cable to connect
        String cable = of(r, "fabric.plan").get(0).id();
        assertThat(of(r, "fabric.blocking")).singleElement().satisfies(f -> {
            assertThat(f.summary()).contains("missing rack3-leaf03 port 20 (Down/Polling; plan: to spine02 port 6)");
            assertThat(f.parent()).isEqualTo(cable);
        });
        assertThat(of(r, "fabric.plan").get(0).parent()).isNull();
        assertThat(of(r, "fabric.tree")).filteredOn(f -> f.status() == Status.WARN).singleElement().satisfies(f -> {
            assertThat(f.summary()).startsWith("node-name-map names:2: not a '0xGUID \"name\"' line");
            assertThat(f.fix()).contains("names:2");
        });
    }

    /** spine02 powered off after the capture: gone from both tools, the leaves' ports 19 and 20 Down/Polling. */
    static TestDump deadSpine(Path tmp) {
        TestDump d = TestDump.demoCopy(tmp);
        StringBuilder nd = new StringBuilder();
        for (String block : d.read("fabric/ibnetdiscover.out").split("\n\n", -1)) {
            if (block.contains("switchguid=0x200001(")) continue;
            StringBuilder kept = new StringBuilder();
            for (String line : block.split("\n", -1)) if (!line.contains("\"S-0000000000200001\"")) kept.append(line).append('\n');
            nd.append(kept, 0, kept.length() - 1).append("\n\n");
        }
        d.write("fabric/ibnetdiscover.out", nd.toString().strip() + "\n");
        String li = d.read("fabric/iblinkinfo.out");
        li = java.util.regex.Pattern.compile("Switch: 0x0000000000200001 spine02:\n(?:\\s+3\\s+\\d+\\[.*\n)+").matcher(li).replaceFirst("");
        li = li.replaceAll("(?m)^(\\s+\\d+\\s+(?:19|20)\\[  \\] ==\\().*\"spine02\".*$", "$1                Down/ Polling)==>             [  ] \"\" ( )");
        d.write("fabric/iblinkinfo.out", li);
        return d;
    }

    @Test
    void deadSpineIsOneRootWithEveryLeafOverTheRatioUnderIt(@TempDir Path tmp) throws Exception {
        TestDump d = deadSpine(tmp);
        assertThat(d.read("fabric/ibnetdiscover.out")).doesNotContain("spine02");
        assertThat(d.read("fabric/iblinkinfo.out")).doesNotContain("spine02");
        java.nio.file.Path rules = tmp.resolve("site.properties");
        java.nio.file.Files.writeString(rules, "fabric.tree.switches_expected=6\n");
        Report r = new RulesEngine(RuleConfig.withOverrides(rules)).run(DumpLoader.load(d.dir));
        Finding count = of(r, "fabric.tree").stream().filter(f -> f.status() == Status.FAIL).findFirst().orElseThrow();
        assertThat(count.summary()).isEqualTo("5 switches in the fabric, expected 6 (per level: 4 leaf, 1 spine)");
        assertThat(count.parent()).isNull();
        assertThat(of(r, "fabric.blocking")).singleElement().satisfies(f -> {
            // hosts differ per leaf (node06 at 1X, node11 at EDR, node16 unplugged): still one finding for the one fault
            assertThat(f.summary()).isEqualTo("4 leaves (leaf04, leaf03, leaf02, leaf01): 3-4 downlinks (600-800 Gb/s) over 2 uplinks (400 Gb/s), "
                    + "blocking up to 2:1, allowed 1:1; every leaf's uplinks reach only spine01; ports 19, 20 down on every leaf");
            assertThat(f.parent()).isEqualTo(count.id());
        });
    }
}
