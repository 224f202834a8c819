package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static io.ibaccept.rules.TestDump.problems;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Findings grouped by the physical object they concern: one fault, one root, its consequences under it. */
class PhysicalCausesTest {
    @TempDir
    Path tmp;

    /** ibdiagnet 2.10's log layout (as in the demo dump), with the given -E-/-W- lines in its counter and speed stages. */
    static String ibdiagnetLog(String counters, String speed) {
        return "Running version:   \"2.10.0\"\n\n---------------------------------------------\nPort Counters\n-I- Build Port Counters\n\n"
                + counters + "\n---------------------------------------------\nSpeed / Width checks\n" + speed
                + "\n---------------------------------------------\nSummary\n-I- Stage                               Warnings   Errors     Comment   \n";
    }

    static String read(Path p) {
        try {
            return java.nio.file.Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static void ibdiagnet(TestDump d, String log) {
        d.write("fabric/ibdiagnet2.log.out", log);
        d.write("fabric/ibdiagnet2.log.meta", "name: ibdiagnet2.log\nhost: fabric\ncommand: ibdiagnet\nstatus: ok\nexit: 0\n");
    }

    static void ibqueryerrors(TestDump d, int port, String counters) {
        d.write("fabric/ibqueryerrors.out", "Errors for 0xc42a10300a00000 \"leaf001\"\n   GUID 0xc42a10300a00000 port " + port + ": " + counters
                + "\n\n## Summary: 11 nodes checked, 1 bad nodes found\n##          56 ports checked, 1 ports have errors beyond threshold\n");
    }

    static void bandwidth(TestDump d, String client, String server, String gbps) {
        d.replace("perftest/ib_write_bw__" + client + "__" + server + ".client.out", "196.40             196.30", gbps + "             " + gbps);
    }

    /** Both iblinkinfo lines of cn0003's cable (leaf001 port 3) at EDR. */
    static void edrOnCn0003(TestDump d) {
        d.replace("fabric/iblinkinfo.out", "1008    3[  ] ==( 4X         53.125 Gbps", "1008    3[  ] ==( 4X       25.78125 Gbps");
        d.replace("fabric/iblinkinfo.out", "1002    1[  ] ==( 4X         53.125 Gbps", "1002    1[  ] ==( 4X       25.78125 Gbps");
    }

    @Test
    void aCableFaultIsOneRootNamingBothEndsWithEverythingOnThatCableUnderIt() {
        TestDump d = TestDump.healthy(tmp, 8);
        edrOnCn0003(d);
        ibqueryerrors(d, 3, "[SymbolErrorCounter == 1234] [LinkDownedCounter == 7]");
        d.write("nodes/cn0003/mlxlink.out", read(TestDump.DEMO.resolve("nodes/node11/mlxlink.out")));
        d.write("nodes/cn0003/mlxlink.meta", "name: mlxlink\nhost: cn0003\ncommand: mlxlink -d mlx5_0 -m -c\nstatus: ok\nexit: 0\n");
        // ibdiagnet names the HCA by its node description, which has a space
        ibdiagnet(d, ibdiagnetLog("-E- Ports counters value Check finished with errors\n-E- lid=0x03f0 dev=0 leaf001/U1/P3\n"
                        + "        Performance Monitor counter     : Value\n        symbol_error_counter            : 1234 (threshold=1)\n",
                "-E- Link: leaf001/U1/P3<-->cn0003 HCA-1/U1/P1 - Unexpected actual link speed 25 (enable_speed1=\"2.5 or 5 or 10 or 14 or 25 or 50\", "
                        + "enable_speed2=\"2.5 or 5 or 10 or 14 or 25 or 50\" therefore final speed should be 50)\n"));
        bandwidth(d, "cn0003", "cn0004", "60.10");
        Report r = d.analyze();

        List<Finding> failRoots = r.roots().stream().filter(f -> f.status() == Status.FAIL).toList();
        // the counts are read once (history, a WARN); the link at EDR is what the cable shows now: the root
        assertThat(failRoots).singleElement().satisfies(root -> {
            assertThat(root.check()).isEqualTo("link.speed");
            assertThat(root.objects()).contains("leaf001 port 3", "cn0003 HCA-1 port 1");
            List<Finding> under = r.consequencesOf(root);
            assertThat(under).extracting(Finding::check).contains("link.errors", "mlxlink", "ibdiagnet", "perftest.bw", "perftest.outlier");
            // the counter and the link speed messages (HCA name with a space), and the stage's summary line if reported
            assertThat(under).filteredOn(f -> f.check().equals("ibdiagnet")).hasSizeGreaterThanOrEqualTo(2);
            assertThat(root.evidence().get(root.evidence().size() - 1).text()).startsWith(under.size() + " consequences listed under this finding: ")
                    .contains("ibdiagnet x").contains("link.errors");
        });
        assertThat(r.roots()).noneMatch(f -> f.check().equals("ibdiagnet") || f.check().startsWith("perftest") && f.status() != Status.SKIP
                && f.status() != Status.PASS);
        assertThat(r.verdict()).isEqualTo(Verdict.REJECTED);
        // nothing is hidden: every finding is still in the report
        assertThat(problems(r, "link.errors")).hasSize(1);
        assertThat(problems(r, "mlxlink")).hasSize(2);
    }

    @Test
    void aPcieFaultExplainsThePairsOfItsHostButNotAnUnrelatedSlowPair() {
        TestDump d = TestDump.healthy(tmp, 8);
        d.replace("nodes/cn0005/mlxlink-pcie.out", "16G-Gen 4 (16G-Gen 4)", "8G-Gen 3 (16G-Gen 4)");
        bandwidth(d, "cn0005", "cn0006", "98.70");
        bandwidth(d, "cn0001", "cn0002", "120.50"); // no hardware finding on either host: its own root
        Report r = d.analyze();
        Finding pcie = problems(r, "pcie").get(0);
        assertThat(pcie.isConsequence()).isFalse();
        assertThat(problems(r, "perftest.bw")).hasSize(2).allSatisfy(f -> {
            if (f.objects().contains("cn0005")) assertThat(f.parent()).isEqualTo(pcie.id());
            else assertThat(f.isConsequence()).isFalse();
        });
        // the outlier finding covers both slow pairs: only one has a cause, so it stays a root of its own
        assertThat(problems(r, "perftest.outlier")).singleElement().satisfies(f -> assertThat(f.isConsequence()).isFalse());
        assertThat(problems(r, "perftest.localisation")).filteredOn(f -> f.objects().equals(List.of("cn0005")))
                .allSatisfy(f -> assertThat(f.parent()).isEqualTo(pcie.id()));
        assertThat(pcie.evidence().get(pcie.evidence().size() - 1).text()).contains("consequence").contains("perftest.bw");
    }

    @Test
    void pairsExplainedByTwoDifferentHostFaultsGoUnderOneAndNameTheOther() {
        TestDump d = TestDump.healthy(tmp, 8);
        d.replace("nodes/cn0005/mlxlink-pcie.out", "16G-Gen 4 (16G-Gen 4)", "8G-Gen 3 (16G-Gen 4)");
        bandwidth(d, "cn0005", "cn0006", "98.70");
        edrOnCn0003(d);
        bandwidth(d, "cn0003", "cn0004", "60.10");
        Report r = d.analyze();
        assertThat(problems(r, "perftest.outlier")).singleElement().satisfies(f -> {
            assertThat(f.isConsequence()).isTrue();
            assertThat(f.evidence()).anySatisfy(e -> assertThat(e.text()).startsWith("also explained by "));
        });
        assertThat(r.roots()).filteredOn(f -> f.status() == Status.FAIL).extracting(Finding::check)
                .containsExactlyInAnyOrder("pcie", "link.speed");
    }

    @Test
    void ibdiagnetPortsNamedByGuidAreMatchedToTheirCable() {
        TestDump d = TestDump.healthy(tmp, 8);
        d.replace("fabric/iblinkinfo.out", "1008    3[  ] ==( 4X", "1008    3[  ] ==( 1X");
        d.replace("fabric/iblinkinfo.out", "1002    1[  ] ==( 4X", "1002    1[  ] ==( 1X");
        ibdiagnet(d, ibdiagnetLog("", "-E- Link: S0c42a10300a00000/N0c42a10300a00000/P3<-->S0c42a10300100004/N0c42a10300100004/P1"
                + " - Unexpected actual link width 1x\n"));
        Report r = d.analyze();
        Finding width = problems(r, "link.width").get(0);
        assertThat(width.isConsequence()).isFalse();
        assertThat(problems(r, "ibdiagnet")).singleElement().satisfies(f -> assertThat(f.parent()).isEqualTo(width.id()));
    }

    @Test
    void ibdiagnetDuplicatedDescriptionWarningsRepeatTheNodeNamesFinding() {
        TestDump d = TestDump.healthy(tmp, 8);
        d.write("fabric/ibnetdiscover.out", d.read("fabric/ibnetdiscover.out").replace("# \"spine02\"", "# \"spine01\""));
        // the verbatim form of a real capture (parsers' real ibdiagnet2.log), on this fabric's switch GUIDs
        ibdiagnet(d, "Running version:   \"2.10.0\"\n\n---------------------------------------------\nNode Description\n"
                + "-W- Note: If you have unmanaged systems then duplication can occur\n"
                + "-W- Duplicated Node Description detection finished with warnings\n"
                + "-W- S0c42a10300a10000/N0c42a10300a10000 - Node with GUID=0x0c42a10300a10000 is configured with duplicated node description - spine01\n"
                + "-W- S0c42a10300a10001/N0c42a10300a10001 - Node with GUID=0x0c42a10300a10001 is configured with duplicated node description - spine01\n"
                + "\n---------------------------------------------\nSummary\n");
        Report r = d.analyze();
        Finding names = problems(r, "node.names").get(0);
        assertThat(names.isConsequence()).isFalse();
        assertThat(problems(r, "ibdiagnet")).hasSizeGreaterThanOrEqualTo(2).allSatisfy(f -> assertThat(f.parent()).isEqualTo(names.id()));
    }

    @Test
    void theSameIbdiagnetWarningOnManyNodesIsOneFindingOnTheRealCapture() {
        // the 272-node NDR capture: 5 switches with the vendor's default description, 5 with older firmware, 5 that do
        // not answer VSGeneralInfo; each kind once, the repeats and the stage lines under it
        Report r = new RulesEngine(RuleConfig.defaults()).run(io.ibaccept.dump.DumpLoader.load(Path.of("..", "sample-dumps", "dumps", "real-captures")));
        for (String kind : List.of("duplicated node description", "has FW version", "No response for MAD VSGeneralInfo")) {
            List<Finding> all = of(r, "ibdiagnet").stream().filter(f -> f.summary().contains(kind)).toList();
            assertThat(all).hasSizeGreaterThanOrEqualTo(5);
            assertThat(all.stream().filter(f -> !f.isConsequence()).toList()).singleElement().satisfies(root ->
                    assertThat(r.consequencesOf(root)).filteredOn(f -> f.summary().contains(kind)).hasSize(all.size() - 1));
        }
        assertThat(r.roots()).noneMatch(f -> f.check().equals("ibdiagnet") && f.summary().contains("finished with warnings"));
    }

    @Test
    void twoCablesWithTheSameIbdiagnetErrorStayTwoFaults() {
        TestDump d = TestDump.healthy(tmp, 8);
        ibdiagnet(d, ibdiagnetLog("-E- Ports counters value Check finished with errors\n"
                + "-E- lid=0x03f0 dev=0 leaf001/U1/P3\n        Performance Monitor counter     : Value\n        symbol_error_counter            : 500 (threshold=1)\n"
                + "-E- lid=0x03f0 dev=0 leaf001/U1/P5\n        Performance Monitor counter     : Value\n        symbol_error_counter            : 500 (threshold=1)\n", ""));
        Report r = d.analyze();
        assertThat(problems(r, "ibdiagnet")).filteredOn(f -> f.summary().contains("symbol_error_counter")).noneMatch(Finding::isConsequence);
    }

    @Test
    void aPortThatIsDownExplainsTheCableFindingsAndIbdiagnetMessagesAboutIt() {
        // a flapping cable: up while iblinkinfo and the counters were read, down when ibstat ran
        TestDump d = TestDump.healthy(tmp, 8);
        d.replace("nodes/cn0004/ibstat.out", "State: Active", "State: Down").replace("nodes/cn0004/ibstat.out", "Physical state: LinkUp", "Physical state: Polling");
        ibqueryerrors(d, 4, "[LinkDownedCounter == 12]");
        ibdiagnet(d, ibdiagnetLog("-E- lid=0x03f0 dev=0 leaf001/U1/P4\n        Performance Monitor counter     : Value\n"
                + "        link_downed_counter             : 12 (threshold=1)\n", ""));
        Report r = d.analyze();
        Finding down = problems(r, "port.state").get(0);
        assertThat(down.isConsequence()).isFalse();
        assertThat(r.consequencesOf(down)).extracting(Finding::check).contains("link.errors", "ibdiagnet");
        assertThat(r.roots()).filteredOn(f -> f.status() == Status.FAIL).containsExactly(down);
    }

    @Test
    void whatIsAboutTheHostsBehindALostSwitchGoesUnderTheSwitch() {
        TestDump d = TestDump.healthy(tmp, 40);
        DiagnosisRulesTest.killLeaf2(d);
        bandwidth(d, "cn0023", "cn0024", "60.10"); // measured before the leaf died
        d.write("nodes/cn0025/ulimit-l.out", "64\n"); // the host's own fault, not the switch's
        Report r = d.analyze();
        Finding leaf = problems(r, "fabric.switches").get(0);
        assertThat(leaf.isConsequence()).isFalse();
        assertThat(problems(r, "perftest.outlier")).singleElement().satisfies(f -> assertThat(f.parent()).isEqualTo(leaf.id()));
        assertThat(problems(r, "memlock")).singleElement().satisfies(f -> assertThat(f.isConsequence()).isFalse());
        assertThat(r.consequencesOf(leaf)).noneMatch(f -> f.check().equals("memlock"));
    }

    @Test
    void aMilderRootNeverHidesAFailAndUnrelatedHostFaultsStayRoots() {
        TestDump d = TestDump.healthy(tmp, 8);
        ibqueryerrors(d, 3, "[SymbolErrorCounter == 50]"); // WARN: above 10, below 100
        ibdiagnet(d, ibdiagnetLog("-E- lid=0x03f0 dev=0 leaf001/U1/P3\n        Performance Monitor counter     : Value\n"
                + "        symbol_error_counter            : 50 (threshold=1)\n", ""));
        d.write("nodes/cn0003/ulimit-l.out", "64\n");
        Report r = d.analyze();
        assertThat(problems(r, "link.errors")).singleElement().satisfies(f -> assertThat(f.status()).isEqualTo(Status.WARN));
        assertThat(problems(r, "ibdiagnet")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.isConsequence()).isFalse();
        });
        assertThat(problems(r, "memlock")).singleElement().satisfies(f -> assertThat(f.isConsequence()).isFalse());
        assertThat(r.verdict()).isEqualTo(Verdict.REJECTED);
    }

    @Test
    void aHealthyFabricHasNoConsequences() {
        Report r = TestDump.healthy(tmp, 8).analyze();
        assertThat(r.findings()).noneMatch(Finding::isConsequence);
        assertThat(of(r, "link.errors")).allSatisfy(f -> assertThat(f.status()).isEqualTo(Status.PASS));
    }
}
