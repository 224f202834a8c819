package io.ibaccept.cli;

import static io.ibaccept.cli.MainTest.DEMO;
import static io.ibaccept.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** contract init / check, and analyze --contract from the command line. */
class ContractCommandTest {
    @Test
    void aDraftFromTheDemoReadsBackAndIsJudgedAgainst(@TempDir Path tmp) throws Exception {
        Path k = tmp.resolve("contract.yaml");
        MainTest.Run init = run("contract", "init", DEMO.toString(), "-o", k.toString());
        assertThat(init.code()).isZero();
        assertThat(init.out()).startsWith("wrote " + k + " (16 hosts)").contains("WARNING: this dump is NOT ACCEPTED");
        String yaml = Files.readString(k);
        assertThat(yaml).contains("hosts: node[01-16]").contains("primary: node01").contains("not uniform in this dump")
                .contains("# WARNING: this dump is NOT ACCEPTED");
        assertThat(run("contract", "init", DEMO.toString(), "-o", k.toString()).err()).contains("exists; the draft does not overwrite a contract");
        MainTest.Run check = run("contract", "check", k.toString());
        assertThat(check.code()).isZero();
        assertThat(check.out()).contains("sha256:").contains("hosts: 16 hosts in 1 class").contains("required checks: port.state");
        MainTest.Run a = run("analyze", DEMO.toString(), "-o", tmp.resolve("o").toString(), "--contract", k.toString());
        // the draft keeps what the dump did not cover required, saying why: the report never claims a coverage it lacks
        assertThat(yaml).contains("  - link.errors.window   # NOT COVERED by this dump: needs counters-start");
        java.util.regex.Matcher cov = java.util.regex.Pattern.compile("coverage (\\d+) of (\\d+) required checks \\(from the contract\\)").matcher(a.out());
        assertThat(cov.find()).as(a.out()).isTrue();
        assertThat(Integer.parseInt(cov.group(1))).isLessThan(Integer.parseInt(cov.group(2)));
        assertThat(a.out()).startsWith("NOT ACCEPTED").contains("FAIL ofed: 1 host(s) (node13) run MLNX_OFED_LINUX-5.4-3.6.8.1, the contract declares MLNX_OFED_LINUX-5.8-1.0.1.1");
        assertThat(Files.readString(tmp.resolve("o/findings.csv"))).contains("contract.hosts");
    }

    @Test
    void aRequiredCheckThatDidNotRunMakesAnalyzeIncompleteWithExitCode4(@TempDir Path tmp) throws Exception {
        Path k = tmp.resolve("c.yaml");
        Files.writeString(k, "required: [sm.count, link.errors.window]\n");
        MainTest.Run a = run("analyze", DEMO.toString(), "-o", tmp.resolve("o").toString(), "--contract", k.toString(), "--rules", rulesOnlySm(tmp).toString());
        assertThat(a.code()).isEqualTo(Main.INCOMPLETE);
        assertThat(a.out()).startsWith("INCOMPLETE");
        String html = Files.readString(tmp.resolve("o/report.html"));
        assertThat(html).contains("coverage 1 of 2 required checks (from the contract)").contains("link.errors.window: needs counters-start");
    }

    /** Every check off but the two required, so the demo's own faults do not decide the verdict. */
    static Path rulesOnlySm(Path tmp) throws Exception {
        StringBuilder b = new StringBuilder();
        for (var c : io.ibaccept.rules.checks.Checks.all())
            if (!c.id().equals("sm.count") && !c.id().equals("link.errors.window")) b.append(c.id()).append(".enabled=false\n");
        Path p = tmp.resolve("only.properties");
        Files.writeString(p, b.toString());
        return p;
    }

    @Test
    void aBadContractStopsWithFileAndLine(@TempDir Path tmp) throws Exception {
        Path k = tmp.resolve("c.yaml");
        Files.writeString(k, "hosts: node[01-16]\nlinks:\n  host: HDR 3X\n");
        MainTest.Run a = run("analyze", DEMO.toString(), "-o", tmp.resolve("o").toString(), "--contract", k.toString());
        assertThat(a.code()).isEqualTo(2);
        assertThat(a.err()).startsWith("ibaccept: " + k + ":3: a link is a speed and a width").doesNotContain("\tat ");
        assertThat(tmp.resolve("o")).doesNotExist();
        Files.writeString(k, "required: [port.state, nonsense]\n");
        assertThat(run("contract", "check", k.toString()).err()).isEqualTo("ibaccept: " + k + ":1: no check is called 'nonsense' ('ibaccept rules' lists them)\n");
    }

    /**
     * A node's output cannot rewrite the draft: values carrying what YAML ends a line at (U+0085, U+2028, U+2029, \r),
     * comment and key markers, quotes and YAML indicators read back, through the contract reader and through the YAML
     * library, as the dump's values, and no key appears that the clean demo's draft does not have.
     */
    @Test
    void dumpValuesWithLineBreaksAndYamlIndicatorsReadBackAsTheSameValues(@TempDir Path tmp) throws Exception {
        // the dump's text reader ends a line at \r: what follows it is cut, so it comes last (YamlTextTest covers \r itself)
        String inject = "\u0085performance:\u2028  bandwidth_percent: 1\u2029counters: {ber_max: 0.5} # '\"-&*!%@`{[ x: y\rrequired: []";
        Path dump = MainTest.copyOfDemo(tmp.resolve("dump"));
        rewrite(dump.resolve("manifest.txt"), "cluster: demo-hdr16", "cluster: demo" + inject);
        for (int n = 1; n <= 16; n++) {
            Path ibstat = dump.resolve(String.format("nodes/node%02d/ibstat.out", n));
            rewrite(ibstat, "CA type: simulator", "CA type: - sim" + inject);
            rewrite(ibstat, "Firmware version: 1", "Firmware version: " + (n == 16 ? "2" : "1") + inject);
        }
        // (an OFED version is a strict token: ofed_info cannot carry these into the model)
        // the master SM's node description: the draft's sm.primary
        rewrite(dump.resolve("fabric/ibnetdiscover.out"), "\"node01 HCA-1\"", "\"node01" + inject.replace(" ", "") + " HCA-1\"");

        Path k = tmp.resolve("contract.yaml");
        MainTest.Run init = run("contract", "init", dump.toString(), "-o", k.toString());
        assertThat(init.code()).as(init.err()).isZero();
        byte[] yaml = Files.readAllBytes(k);
        io.ibaccept.analysis.Analysis a = io.ibaccept.analysis.Analysis.of(dump, io.ibaccept.analysis.Analysis.Options.of(io.ibaccept.rules.RuleConfig.defaults()));
        String cluster = a.data().manifest().cluster();
        Map<String, String> firmware = new java.util.TreeMap<>();
        for (var h : a.data().hosts().values()) for (var ca : h.infinibandCas()) if (h.host().equals("node01")) firmware.put(ca.caType(), ca.firmware());
        String ofed = a.data().hosts().get("node01").ofedVersion();
        String primary = a.data().fabric().topology().nodes().stream().filter(n -> n.description().startsWith("node01"))
                .map(n -> io.ibaccept.fabric.Fabric.hostPart(n.description())).findFirst().orElseThrow();
        // the hostile characters reached the model: the test is about them
        assertThat(firmware.keySet().iterator().next()).contains("\u2028", "'", "- sim");
        assertThat(firmware.values().iterator().next()).contains("\u0085", "\u2029", "# ");
        assertThat(primary).contains("\u0085", "\u2028", "{ber_max", "#'"); // a description ends at its closing quote

        // the project's own reader
        io.ibaccept.contract.Contract c = io.ibaccept.contract.ContractFile.parse(k.toString(), yaml);
        assertThat(c.cluster()).isEqualTo(cluster);
        assertThat(c.versions().firmware()).isEqualTo(firmware);
        assertThat(c.versions().ofed()).isEqualTo(ofed);
        assertThat(c.sm().primary()).isEqualTo(primary);
        assertThat(c.performance().bandwidthPercent()).isNull();
        assertThat(c.counters().berMax()).isNull();
        // the YAML library, and the keys against those of the clean demo's draft
        Map<String, Object> hostile = new org.yaml.snakeyaml.Yaml().load(new String(yaml, java.nio.charset.StandardCharsets.UTF_8));
        assertThat(hostile.get("cluster")).isEqualTo(cluster);
        assertThat(((Map<?, ?>) hostile.get("sm")).get("primary")).isEqualTo(primary);
        assertThat(((Map<?, ?>) hostile.get("versions")).get("firmware")).isEqualTo(firmware);
        assertThat(((Map<?, ?>) hostile.get("versions")).get("ofed")).isEqualTo(ofed);
        Path clean = tmp.resolve("clean.yaml");
        assertThat(run("contract", "init", DEMO.toString(), "-o", clean.toString()).code()).isZero();
        Map<String, Object> demo = new org.yaml.snakeyaml.Yaml().load(Files.readString(clean));
        assertThat(keyPaths("", hostile)).isEqualTo(keyPaths("", demo));
        // the value of node16 that differs is named in a comment that stays one line
        assertThat(new String(yaml, java.nio.charset.StandardCharsets.UTF_8).lines().filter(l -> l.contains("not uniform")))
                .anySatisfy(l -> assertThat(l).contains("\\u2028").contains("\\x85"));
    }

    /** A contract of a couple of KB naming millions of hosts stops at once, with its file and line, on check and on analyze. */
    @Test
    void aContractOfMillionsOfHostsStopsAtOnceWithFileAndLine(@TempDir Path tmp) throws Exception {
        StringBuilder y = new StringBuilder("cluster: x\npartitions:\n");
        for (int p = 1; p <= 40; p++) y.append("  - name: p").append(p).append("\n    pkey: ").append(p).append("\n    members: n[000000-099999]x[0-8]\n");
        Path k = tmp.resolve("c.yaml");
        Files.writeString(k, y);
        for (String[] args : new String[][] {{"contract", "check", k.toString()}, {"analyze", DEMO.toString(), "-o", tmp.resolve("o").toString(), "--contract", k.toString()}}) {
            MainTest.Run r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () -> run(args));
            assertThat(r.code()).isEqualTo(2);
            assertThat(r.err()).startsWith("ibaccept: " + k + ":5: a hostlist of a contract names at most 49,151 hosts");
        }
        assertThat(tmp.resolve("o")).doesNotExist();
    }

    private static void rewrite(Path file, String from, String to) throws Exception {
        String s = Files.readString(file);
        assertThat(s).contains(from);
        Files.writeString(file, s.replace(from, to));
    }

    /** Every key path of a loaded YAML document ("versions.ofed"); the firmware models are the dump's, not keys of the schema. */
    private static java.util.Set<String> keyPaths(String at, Object node) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        if (node instanceof Map<?, ?> m && !at.equals("versions.firmware."))
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.add(at + e.getKey());
                out.addAll(keyPaths(at + e.getKey() + ".", e.getValue()));
            }
        return out;
    }
}
