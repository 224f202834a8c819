package io.ibaccept.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.parse.Text;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanDiffTest {
    /** The plan of TestFabrics.fatTree(2, 4, 2, 4) as the customer writes it: switch uplinks by name, with cable ids. */
    static String plan() {
        StringBuilder sb = new StringBuilder("switch,port,peer,peer_port,cable_id\n# ISLs only\n");
        for (int l = 1; l <= 4; l++)
            for (int s = 1; s <= 2; s++)
                for (int k = 0; k < 2; k++)
                    sb.append(String.format("leaf%02d,%d,spine%02d,%d,C-%d%d%d%n", l, 17 + (s - 1) * 2 + k, s, (l - 1) * 2 + k + 1, l, s, k));
        return sb.toString();
    }

    static CablingPlan csv(String text) {
        return CablingPlan.parse(new Text("plan.csv", text));
    }

    @Test
    void asPlannedMatchesEverything() {
        PlanDiff.Result r = PlanDiff.compare(TestFabrics.fatTree(2, 4, 2, 4).fabric(), csv(plan()));
        assertThat(r.planProblems()).isEmpty();
        assertThat(r.planned()).isEqualTo(16);
        assertThat(r.matched()).isEqualTo(16);
        assertThat(r.issues()).isEmpty();
        assertThat(r.workOrder()).isEmpty();
    }

    @Test
    void twoSwappedCablesAreOneFindingWithTheSwap() {
        TestFabrics t = TestFabrics.fatTree(2, 4, 2, 4);
        // leaf03 port 17 should go to spine01 port 5 and port 19 to spine02 port 5: the plugs were crossed at the leaf
        TestFabrics.Cable a = t.find("leaf03", 17), b = t.find("leaf03", 19);
        t.cables.remove(a);
        t.cables.remove(b);
        t.cable("leaf03", 17, "spine02", 5);
        t.cable("leaf03", 19, "spine01", 5);
        PlanDiff.Result r = PlanDiff.compare(t.fabric(), csv(plan()));
        assertThat(r.matched()).isEqualTo(14);
        assertThat(r.issues()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("miswired");
            assertThat(i.summary()).contains("leaf03 port 17 goes to spine02 port 5, plan says spine01 port 5")
                    .contains("leaf03 port 19 goes to spine01 port 5, plan says spine02 port 5");
            assertThat(i.vars().get("move")).isEqualTo("swap the cables at leaf03 port 17 and leaf03 port 19");
            assertThat(i.facts()).anySatisfy(x -> assertThat(x.ref().toString()).startsWith("plan.csv:"));
        });
        assertThat(r.workOrder()).singleElement().satisfies(w -> {
            assertThat(w.action()).isEqualTo("swap");
            assertThat(w.a()).isEqualTo("leaf03");
            assertThat(w.cableId()).isEqualTo("C-310 C-320");
        });
    }

    @Test
    void missingCableMissingSwitchAndExtraCable() {
        TestFabrics t = TestFabrics.fatTree(2, 4, 2, 4);
        t.unplug("leaf02", 20);
        t.cable("leaf04", 30, "spine01", 30);
        String plan = plan() + "leaf05,17,spine01,9,C-510\nleaf05,19,spine02,9,C-520\n";
        PlanDiff.Result r = PlanDiff.compare(t.fabric(), csv(plan));
        assertThat(r.issues()).extracting(Issue::kind).containsExactlyInAnyOrder("node_missing", "missing", "extra");
        assertThat(r.issues()).filteredOn(i -> i.kind().equals("missing")).singleElement().satisfies(i ->
                assertThat(i.summary()).isEqualTo("leaf02 port 20 <-> spine02 port 4 (cable C-221) is not connected: "
                        + "leaf02 port 20 Down/Polling, spine02 port 4 Down/Polling"));
        assertThat(r.issues()).filteredOn(i -> i.kind().equals("node_missing")).singleElement().satisfies(i ->
                assertThat(i.summary()).startsWith("leaf05 is in the cabling plan but not in the fabric: its 2 planned cable(s) are absent"));
        assertThat(r.issues()).filteredOn(i -> i.kind().equals("extra")).singleElement().satisfies(i ->
                assertThat(i.summary()).isEqualTo("leaf04 port 30 <-> spine01 port 30 is cabled but not in the plan"));
        assertThat(r.workOrder()).extracting(w -> w.action() + "," + w.a() + "," + w.aPort() + "," + w.b() + "," + w.bPort() + "," + w.cableId())
                .contains("connect,leaf02,20,spine02,4,C-221", "disconnect,leaf04,30,spine01,30,");
        assertThat(r.workOrder()).filteredOn(w -> w.action().equals("check")).extracting(PlanDiff.Work::a).contains("leaf05");
    }

    @Test
    void goldenIbnetdiscoverAsPlanByGuid(@TempDir Path tmp) throws Exception {
        TestFabrics golden = TestFabrics.fatTree(2, 4, 2, 4);
        Path file = tmp.resolve("golden.ibnetdiscover");
        Files.writeString(file, golden.ibnetdiscover());
        CablingPlan plan = CablingPlan.load(file);
        assertThat(plan.cables()).hasSize(32); // 16 host cables + 16 ISLs
        TestFabrics now = TestFabrics.fatTree(2, 4, 2, 4);
        now.unplug("leaf01", 17);
        PlanDiff.Result r = PlanDiff.compare(now.fabric(), plan);
        assertThat(r.issues()).singleElement().satisfies(i -> assertThat(i.summary()).startsWith("leaf01 port 17 <-> spine01 port 1 is not connected"));
    }

    @Test
    void badPlanRowsAreProblemsWithLines() {
        CablingPlan p = csv("switch,port,peer,peer_port\nleaf01,17,spine01,1\nleaf01,x,spine01,2\nleaf01,18\n");
        assertThat(p.cables()).hasSize(1);
        assertThat(p.problems()).extracting(x -> x.ref().toString()).containsExactly("plan.csv:3", "plan.csv:4");
    }

    @Test
    void aBinaryPlanIsRefusedAndAnUndecodableRowIsAProblem(@TempDir Path tmp) throws Exception {
        Path bin = tmp.resolve("plan.bin");
        Files.write(bin, new byte[] {0x50, 0x4b, 3, 4, 0, 0, 1});
        assertThatThrownBy(() -> CablingPlan.load(bin)).isInstanceOf(io.ibaccept.safety.SideInput.Refused.class)
                .hasMessage(bin + ": the cabling plan is binary (a NUL byte at offset 4), not text");
        Path latin = tmp.resolve("plan.csv");
        Files.write(latin, "leaf01,17,spine01,1\nleaf\u00e9,x,spine01,2\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        CablingPlan p = CablingPlan.load(latin);
        assertThat(p.cables()).hasSize(1);
        assertThat(p.problems()).extracting(x -> x.ref().toString()).containsExactly("plan.csv:2");
    }

    @Test
    void aPlanWithShortSwitchNamesAndHostNamesOfMultiHcaNodesIsResolvedOnARealSuperpod() {
        // the NDR SuperPOD topology (real, parsers/src/test/resources/real): switches "MF0;B09-P1-IBLEAF-04-08:MQM9701/U1",
        // DGX nodes with several HCAs (b08-p1-dgx-08-c18 has four in this capture: HCA-1, -2, -5, -6)
        Fabric f = FabricBuilder.build(io.ibaccept.parse.IbnetdiscoverParser.parse(io.ibaccept.parse.RealSamplesTest.real(
                "ibnetdiscover/topograph-ndr-superpod-40sw-582ca.txt"), io.ibaccept.parse.Issues.strict()), null, null);
        PlanDiff.Result ok = PlanDiff.compare(f, csv("""
                switch,port,peer,peer_port
                B09-P1-IBLEAF-04-08,18,b08-p1-dgx-08-c18,1
                B09-P1-IBLEAF-01-08,18,b08-p1-dgx-08-c18,1
                B09-P1-IBLEAF-04-08,33,A10-P1-IBSPINE-01,63
                """));
        assertThat(ok.planProblems()).isEmpty();
        assertThat(ok.matched()).isEqualTo(3);
        // a plan of three cables: the planned switches' other cables are extra, nothing is missing or unknown
        assertThat(ok.issues()).isNotEmpty().allMatch(i -> i.kind().equals("extra"));
        // the host name on a port where none of its HCAs is: the plan must name the HCA, the node is not "missing"
        PlanDiff.Result wrong = PlanDiff.compare(f, csv("""
                B09-P1-IBLEAF-04-08,19,b08-p1-dgx-08-c18,1
                """));
        assertThat(wrong.planProblems()).extracting(CablingPlan.Problem::message).singleElement().asString()
                .startsWith("ambiguous: 'b08-p1-dgx-08-c18' has 4 HCAs in the fabric and the planned port has none of them; name the HCA ('b08-p1-dgx-08-c18 HCA-");
        assertThat(wrong.issues()).noneMatch(i -> i.summary().contains("not in the fabric"));
    }
}
