package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.analysis.ContractDraft;
import io.ibaccept.contract.Contract;
import io.ibaccept.contract.ContractFile;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.samples.SyntheticDump;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The acceptance contract: judged against what it declares, coverage of the required checks, and no degraded majority. */
class ContractRulesTest {
    static Contract contract(String yaml) {
        return ContractFile.parse("c.yaml", yaml.getBytes(StandardCharsets.UTF_8));
    }

    static Analysis analyse(ClusterData d, Contract k) {
        return Analysis.of(d, Analysis.Options.defaults().withContract(k));
    }

    static List<Finding> problems(Report r, String check) {
        return r.findings().stream().filter(f -> f.check().equals(check) && (f.status() == Status.FAIL || f.status() == Status.WARN)).toList();
    }

    @Test
    void withoutAContractADumpMissingRequiredChecksIsNeverPlainAccepted(@TempDir Path tmp) {
        SyntheticDump.generate(tmp, 200, false);
        Report r = Analysis.of(DumpLoader.load(tmp)).report();
        assertThat(r.findings()).noneMatch(f -> f.status() == Status.FAIL);
        assertThat(r.coverage().declared()).isFalse();
        assertThat(r.coverage().gaps()).extracting(Coverage.Required::check).contains("link.errors.window");
        assertThat(r.verdictLine()).contains("(limited coverage: ").contains("required check");
        assertThat(r.meaning()).doesNotContain("all checks passed");
        assertThat(r.coverage().summary()).startsWith("coverage ").endsWith("(default set)");
    }

    @Test
    void theDraftOfAHealthyDumpKeepsWhatTheDumpDidNotCoverRequired(@TempDir Path tmp) {
        SyntheticDump.generate(tmp, 2000, false);
        ClusterData d = DumpLoader.load(tmp);
        String yaml = ContractDraft.of(Analysis.of(d));
        assertThat(yaml).contains("hosts: cn[0001-2000]").contains("hcas: 1").contains("link: HDR 4X").contains("MT4123: 20.31.1014")
                .doesNotContain("WARNING");
        // the dump has no counter window: the check stays required, with why and how to collect it
        assertThat(yaml).containsPattern("\\n  - link\\.errors\\.window   # NOT COVERED by this dump: needs counters-start");
        Analysis a = analyse(d, contract(yaml));
        assertThat(a.report().coverage().declared()).isTrue();
        assertThat(a.report().coverage().gaps()).singleElement().satisfies(g -> assertThat(g.check()).isEqualTo("link.errors.window"));
        assertThat(a.report().verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(a.report().checkStatus()).containsEntry("contract.hosts", Status.PASS).containsEntry("contract.design", Status.PASS);
        // without that requirement (the engineer's decision, written in the contract) the same dump is accepted, fully covered
        Analysis without = analyse(d, contract(yaml.replaceAll("\\n  - link\\.errors\\.window[^\\n]*", "")));
        assertThat(without.report().coverage().gaps()).isEmpty();
        assertThat(without.report().verdict()).isEqualTo(Verdict.ACCEPTED);
        assertThat(without.report().verdictLine()).isEqualTo("ACCEPTED");
    }

    @Test
    void aDraftFromADumpThatIsNotAcceptedSaysSoInItsHeader(@TempDir Path tmp) {
        SyntheticDump.generate(tmp, 200, true);
        Analysis a = Analysis.of(DumpLoader.load(tmp));
        assertThat(a.report().verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(ContractDraft.warning(a)).startsWith("this dump is NOT ACCEPTED");
        assertThat(ContractDraft.of(a)).contains("# WARNING: this dump is NOT ACCEPTED").contains("writes them down as the design");
    }

    @Test
    void aRequiredCheckThatDidNotCoverItsScopeMakesTheVerdictIncomplete(@TempDir Path tmp) {
        SyntheticDump.generate(tmp, 200, false);
        Report r = analyse(DumpLoader.load(tmp), contract("required: [port.state, link.errors.window]\n")).report();
        assertThat(r.verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(r.coverage().gapLines()).singleElement().satisfies(l -> assertThat(l).startsWith("link.errors.window: needs counters-start"));
        assertThat(r.meaning()).contains("the contract requires");
    }

    @Test
    void halfTheHostLinksAt1XFailHoweverManyTheyAre(@TempDir Path tmp) {
        SyntheticDump.generate(tmp, 200, false, true); // every other host at 1X: 100 of 200, no majority
        Report r = Analysis.of(DumpLoader.load(tmp)).report();
        List<Finding> width = problems(r, "link.width");
        assertThat(width).filteredOn(f -> f.status() == Status.FAIL).hasSizeGreaterThanOrEqualTo(100)
                .allSatisfy(f -> assertThat(f.summary()).contains("runs at 1X, expected 4X"));
        assertThat(width.get(0).summary()).contains("no majority among host links (100 at 4X, 100 at 1X)");
    }

    @Test
    void aContractDeclaringTwoToOneMakesATwoToOneFabricPass(@TempDir Path tmp) throws IOException {
        ClusterData data = DumpLoader.load(RealFabricRulesTest.dump(tmp, "clustervision-trinityx-edr-6sw-96ca.txt", "fab"));
        assertThat(problems(Analysis.of(data).report(), "fabric.blocking")).extracting(Finding::variant).containsExactlyInAnyOrder("ratio_design", "ratio");
        Report r = analyse(data, contract("fabric:\n  blocking_ratio: \"2:1\"\n")).report();
        // the design is no finding any more; the one leaf whose uplink trained at DDR is still over the declared ratio
        assertThat(problems(r, "fabric.blocking")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).contains("blocking 2.15:1, allowed 2:1");
        });
        // declared per level: the leaves' ratio is the one judged at the leaves
        Report perLevel = analyse(data, contract("fabric:\n  blocking_ratio:\n    leaves: \"2:1\"\n    spines: \"1:1\"\n")).report();
        assertThat(problems(perLevel, "fabric.blocking")).singleElement().satisfies(f -> assertThat(f.summary()).contains("blocking 2.15:1, allowed 2:1"));
        Report one = analyse(data, contract("fabric:\n  blocking_ratio: \"1:1\"\n")).report();
        assertThat(problems(one, "fabric.blocking")).isNotEmpty().allMatch(f -> f.status() == Status.FAIL);
    }

    @Test
    void declaredFirmwareAndLinksAreJudgedAgainstTheContractNotTheMajority(@TempDir Path tmp) {
        SyntheticDump.generate(tmp, 200, false);
        ClusterData d = DumpLoader.load(tmp);
        Report r = analyse(d, contract("versions:\n  firmware:\n    MT4123: 20.40.1000\nlinks:\n  host: NDR 4X\n")).report();
        assertThat(problems(r, "firmware")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).startsWith("200 host(s) (cn[0001-0200]) with MT4123 run firmware 20.31.1014, the contract declares 20.40.1000");
            assertThat(f.evidence()).anySatisfy(e -> assertThat(e.where()).isEqualTo("c.yaml:3"));
        });
        assertThat(problems(r, "link.speed")).isNotEmpty().allSatisfy(f -> assertThat(f.summary()).contains("expected NDR"));
        // declared in a class: the finding cites the class's line; a model named in versions wins over the class
        Report byClass = analyse(d, contract("classes:\n  cn:\n    hosts: cn[0001-0200]\n    firmware: 20.40.1000\n")).report();
        assertThat(problems(byClass, "firmware")).singleElement()
                .satisfies(f -> assertThat(f.evidence()).anySatisfy(e -> assertThat(e.where()).isEqualTo("c.yaml:4")));
        Report modelWins = analyse(d, contract("classes:\n  cn:\n    hosts: cn[0001-0200]\n    firmware: 20.40.1000\n"
                + "versions:\n  firmware:\n    MT4123: 20.31.1014\n")).report();
        assertThat(problems(modelWins, "firmware")).isEmpty();
        Report ok = analyse(d, contract("versions:\n  firmware: 20.31.1014\n")).report();
        assertThat(problems(ok, "firmware")).isEmpty();
        assertThat(ok.checkStatus()).containsEntry("firmware", Status.PASS);
    }

    @Test
    void diffListsWhatTheNewDumpHasOffTheContract(@TempDir Path tmp) {
        SyntheticDump.generate(tmp, 40, false);
        ClusterData d = DumpLoader.load(tmp);
        Contract k = contract("hosts: cn[0001-0040]\nlinks:\n  host: HDR 4X\nversions:\n  ofed: 5.8-9.9.9.9\nrequired: [port.state, link.errors.window]\n");
        Analysis a = analyse(d, k);
        var changes = io.ibaccept.analysis.AnalysisDiff.compare(a, a);
        assertThat(changes).filteredOn(c -> c.category().equals("contract")).singleElement().satisfies(c -> {
            assertThat(c.object()).startsWith("ofed: cn0001");
            assertThat(c.before()).isEqualTo("c.yaml:5");
            assertThat(c.after()).startsWith("FAIL 40 host(s) (cn[0001-0040]) run ").contains("the contract declares 5.8-9.9.9.9");
        });
        assertThat(changes).filteredOn(c -> c.category().equals("contract.coverage")).extracting(c -> c.object()).containsExactly("link.errors.window");
        assertThat(io.ibaccept.analysis.AnalysisDiff.compare(Analysis.of(d), Analysis.of(d))).isEmpty();
    }

    /** A node description that is not the host name (an FQDN here) still finds its host by GUID, and its class's link. */
    @Test
    void aHostLinkIsFoundByItsGuidNotByTheFirstWordOfItsDescription(@TempDir Path tmp) throws IOException {
        SyntheticDump.generate(tmp, 40, false);
        Path links = tmp.resolve("fabric/iblinkinfo.out");
        Files.writeString(links, Files.readString(links).replace("cn0005 HCA-1", "cn0005.cluster.example HCA-1"));
        Report r = analyse(DumpLoader.load(tmp), contract("classes:\n  fast:\n    hosts: cn0005\n    link: NDR 4X\n")).report();
        assertThat(problems(r, "link.speed")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).contains("cn0005.cluster.example HCA-1").contains("expected NDR (declared for cn0005 in the contract)");
            assertThat(f.evidence()).anySatisfy(e -> assertThat(e.where()).isEqualTo("c.yaml:4"));
        });
    }

    /** The switches' firmware from a real ibdiagnet db_csv (NDR Quantum-2, device 54002) against the declared version. */
    @Test
    void switchFirmwareIsReadFromIbdiagnetAndJudgedPerDevice(@TempDir Path tmp) throws IOException {
        Path d = tmp.resolve("dump");
        Files.createDirectories(d.resolve("fabric"));
        Files.copy(Path.of("..", "parsers", "src", "test", "resources", "real", "ibdiagnet2.db_csv", "gary-minghuili-ndr-quantum2-full.txt"),
                d.resolve("fabric/ibdiagnet2.db_csv.out"));
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: real\nfabric_node: fab\nnodes: fab\n");
        ClusterData data = DumpLoader.load(d);
        // the capture is really mixed: one Quantum-2 runs 31.2012.1068, the others 31.2012.1024
        Report mixed = analyse(data, contract("versions:\n  switch_firmware:\n    54002: 31.2012.1024\n")).report();
        assertThat(problems(mixed, "contract.design")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).isEqualTo("1 switch(es) of device 54002 run firmware 31.2012.1068, the contract declares 31.2012.1024: "
                    + "Quantum-2 Mellanox Technologies (0xb0cf0e0300e5b940)");
            assertThat(f.evidence()).anySatisfy(e -> assertThat(e.where()).startsWith("fabric/ibdiagnet2.db_csv.out:"))
                    .anySatisfy(e -> assertThat(e.where()).isEqualTo("c.yaml:3"));
        });
        Report old = analyse(data, contract("versions:\n  switch_firmware: 31.2014.1000\n")).report();
        assertThat(problems(old, "contract.design")).extracting(Finding::summary).hasSize(2)
                .anySatisfy(x -> assertThat(x).containsPattern("^\\d+ switch\\(es\\) of device 54002 run firmware 31.2012.1024, the contract declares 31.2014.1000: "));
    }

    /**
     * The real SuperPOD fabric is rail-optimized: each leaf carries one HCA index of every DGX in its unit, named "HCA-5"
     * on some hosts and "mlx5_4" on others. One DGX really has two HCA cables swapped: b08-p1-dgx-08-c01's HCA-5 is on
     * the HCA-6 rail's leaf B09-P1-IBLEAF-04-08 port 1 and its HCA-6 on the HCA-5 rail's leaf 03-08 port 1.
     */
    @Test
    void railsAreReadFromTheHcaDevicesOnEachLeaf(@TempDir Path tmp) throws IOException {
        Path d = tmp.resolve("dump");
        Files.createDirectories(d.resolve("fabric"));
        Path capture = Path.of("..", "parsers", "src", "test", "resources", "real", "ibnetdiscover", "topograph-ndr-superpod-40sw-582ca.txt");
        Files.copy(capture, d.resolve("fabric/ibnetdiscover.out"));
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: real\nfabric_node: fab\nnodes: fab\n");
        ClusterData data = DumpLoader.load(d);
        // found without a contract: the real swap, and nothing else (the UFM appliance's two CAs on those leaves are no hosts)
        assertThat(problems(Analysis.of(data).report(), "fabric.rails")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.variant()).isEqualTo("swap");
            assertThat(f.summary()).isEqualTo("2 host cable(s) on a leaf of another rail: "
                    + "b08-p1-dgx-08-c01 HCA-6 <-> MF0;B09-P1-IBLEAF-03-08:MQM9701/U1 port 1 (the leaf's rail is HCA-5/mlx5_4); "
                    + "b08-p1-dgx-08-c01 HCA-5 <-> MF0;B09-P1-IBLEAF-04-08:MQM9701/U1 port 1 (the leaf's rail is HCA-6/mlx5_5)");
            assertThat(f.objects()).containsExactly("b08-p1-dgx-08-c01 HCA-6", "b08-p1-dgx-08-c01 HCA-5");
        });
        assertThat(problems(analyse(data, contract("fabric:\n  rails: 8\n")).report(), "fabric.rails")).filteredOn(f -> f.variant().equals("count"))
                .singleElement().satisfies(f -> assertThat(f.summary())
                        .isEqualTo("the hosts' HCAs are on 4 rail(s) (HCA-1/mlx5_0, HCA-2/mlx5_1, HCA-5/mlx5_4, HCA-6/mlx5_5), the contract declares 8"));
        // two more HCA cables swapped at one host, named the rdma-ndd way: both named too
        String text = Files.readString(capture);
        Files.writeString(d.resolve("fabric/ibnetdiscover.out"), text.replace("\"a08-p1-dgx-04-c01 mlx5_5\"", "\"a08-p1-dgx-04-c01 mlx5_X\"")
                .replace("\"a08-p1-dgx-04-c01 mlx5_4\"", "\"a08-p1-dgx-04-c01 mlx5_5\"").replace("\"a08-p1-dgx-04-c01 mlx5_X\"", "\"a08-p1-dgx-04-c01 mlx5_4\""));
        Report swapped = Analysis.of(DumpLoader.load(d)).report();
        assertThat(problems(swapped, "fabric.rails")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).startsWith("4 host cable(s) on a leaf of another rail: ")
                    .contains("a08-p1-dgx-04-c01 mlx5_5 <-> MF0;A09-P1-IBLEAF-03-04:MQM9701/U1 port 1 (the leaf's rail is HCA-5/mlx5_4)",
                            "a08-p1-dgx-04-c01 mlx5_4 <-> MF0;A09-P1-IBLEAF-04-04:MQM9701/U1 port 1 (the leaf's rail is HCA-6/mlx5_5)");
            assertThat(f.objects()).contains("a08-p1-dgx-04-c01 mlx5_5", "a08-p1-dgx-04-c01 mlx5_4", "b08-p1-dgx-08-c01 HCA-6");
        });
    }

    @Test
    void theContractsHostsAndTheirHcasAreCounted(@TempDir Path tmp) {
        SyntheticDump.generate(tmp, 40, false);
        Report r = analyse(DumpLoader.load(tmp), contract("""
                hosts: cn[0001-0041]
                classes:
                  gpu:
                    hosts: cn[0001-0010]
                    hcas: 2
                """)).report();
        List<Finding> f = problems(r, "contract.hosts");
        assertThat(f).extracting(Finding::variant).containsExactlyInAnyOrder("absent", "hcas");
        assertThat(f).filteredOn(x -> x.variant().equals("absent")).singleElement()
                .satisfies(x -> assertThat(x.summary()).isEqualTo("1 of 41 contract hosts are not in the dump: cn0041"));
        assertThat(f).filteredOn(x -> x.variant().equals("hcas")).singleElement()
                .satisfies(x -> assertThat(x.summary()).contains("10 host(s) of class gpu (cn[0001-0010]) have 1 InfiniBand HCA(s), the contract declares 2"));
        assertThat(r.verdict()).isEqualTo(Verdict.REJECTED);
    }

    @Test
    void switchCountsPerRoleAndPartitionMembershipAreJudged(@TempDir Path tmp) {
        SyntheticDump.generate(tmp, 40, false); // 2 leaves, 2 spines
        ClusterData d = DumpLoader.load(tmp);
        Report ok = analyse(d, contract("fabric:\n  leaves: 2\n  spines: 2\npartitions:\n  - name: Default\n    pkey: 0x7fff\n"
                + "    members: cn[0001-0040]\n    membership: full\n")).report();
        assertThat(problems(ok, "contract.design")).isEmpty();
        assertThat(ok.findings()).filteredOn(f -> f.check().equals("contract.design")).singleElement()
                .satisfies(f -> assertThat(f.summary()).contains("2 leaves").contains("2 spines").contains("partition Default (0x7fff) on its 40 member(s)"));
        Report bad = analyse(d, contract("fabric:\n  leaves: 3\npartitions:\n  - name: Default\n    pkey: 0x7fff\n"
                + "    members: cn[0001-0002]\n    membership: limited\n")).report();
        assertThat(problems(bad, "contract.design")).extracting(Finding::summary).containsExactlyInAnyOrder(
                "the fabric has 2 leaves (switch level 1), the contract declares 3",
                "2 declared member(s) of Default (0x7fff) lack its P_Key as limited members: cn[0001-0002]");
        assertThat(ContractDraft.of(Analysis.of(d))).contains("  leaves: 2\n  spines: 2\n");
    }

    @Test
    void aRequiredCheckNoCheckHasIsAContractErrorWithItsLine() {
        assertThatThrownBy(() -> Analysis.rulesFor(RuleConfig.defaults(), contract("cluster: x\nrequired:\n  - port.state\n  - link.widht\n")))
                .isInstanceOf(ContractFile.BadContract.class).hasMessageStartingWith("c.yaml:4: no check is called 'link.widht'");
    }
}
