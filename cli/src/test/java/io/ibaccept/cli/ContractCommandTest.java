package io.ibaccept.cli;

import static io.ibaccept.cli.MainTest.DEMO;
import static io.ibaccept.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** contract init / check, and analyze --contract from the command line. */
class ContractCommandTest {
    @Test
    void aDraftFromTheDemoReadsBackAndIsJudgedAgainst(@TempDir Path tmp) throws Exception {
        Path k = tmp.resolve("contract.yaml");
        MainTest.Run init = run("contract", "init", DEMO.toString(), "-o", k.toString());
        assertThat(init.code()).isZero();
        assertThat(init.out()).startsWith("wrote " + k + " (16 hosts)");
        String yaml = Files.readString(k);
        assertThat(yaml).contains("hosts: node[01-16]").contains("primary: node01").contains("not uniform in this dump");
        assertThat(run("contract", "init", DEMO.toString(), "-o", k.toString()).err()).contains("exists; the draft does not overwrite a contract");
        MainTest.Run check = run("contract", "check", k.toString());
        assertThat(check.code()).isZero();
        assertThat(check.out()).contains("sha256:").contains("hosts: 16 hosts in 1 class").contains("required checks: port.state");
        MainTest.Run a = run("analyze", DEMO.toString(), "-o", tmp.resolve("o").toString(), "--contract", k.toString());
        // the draft requires only what the dump covers: the demo's faults fail, its coverage is full
        assertThat(a.out()).containsPattern("coverage (\\d+) of \\1 required checks \\(from the contract\\)");
        assertThat(yaml).contains("#  - link.errors.window   # needs counters-start");
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
}
