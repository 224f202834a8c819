package io.ibaccept.cli;

import static io.ibaccept.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpWriter;
import io.ibaccept.dump.Manifest;
import io.ibaccept.parse.Text;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The command line itself: help, version, completion, and what it rejects (exit 2, a message, no stack trace). */
class CommandLineTest {
    @ParameterizedTest
    @ValueSource(strings = {"analyze", "collect", "rdma", "burn", "diff", "rules", "probe", "bench", "sim-capture", "completion"})
    void everyCommandHasItsOwnHelp(String command) {
        MainTest.Run r = run(command, "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("Usage: ibaccept " + command + " ").contains("-h, --help").contains("Exit codes:");
        assertThat(run("help", command).out()).isEqualTo(r.out());
    }

    @Test
    void helpNamesTheOptionsOfEachCommand() {
        assertThat(run("analyze", "--help").out()).contains("DUMP").contains("-o, --output=DIR").contains("--rules=FILE");
        assertThat(run("collect", "--help").out()).contains("--nodes=HOSTLIST").contains("--hostfile=FILE").contains("--slurm")
                .contains("--only=CMD[,CMD...]").contains("smpquery-pkeys-peer,").contains("--transport=KIND").contains("--ssh-opt=OPT")
                .contains("--node-timeout-s=S");
        assertThat(run("rdma", "--help").out()).contains("--tests=TEST[,TEST...]").contains("all-pairs, ring, bisection");
        assertThat(run("bench", "--help").out()).contains("--nodes=N").contains("--runs=K").contains("--fresh-runs=K");
        // each command's own exit codes, not analyze's
        assertThat(run("collect", "--help").out()).contains("  0   the dump is written").contains("  1   the dump is written, but more than half")
                .doesNotContain("not accepted");
        assertThat(run("analyze", "--help").out()).contains("  4   incomplete");
        assertThat(run("burn", "--help").out()).contains("  1   a node dropped out");
        assertThat(run("drill", "sm-failover", "--help").out()).contains("  2   bad usage, or refused (no --yes, no running standby)");
        assertThat(run("diff", "--help").out()).contains("  1   something changed").doesNotContain("not accepted");
    }

    @Test
    void rulesPrintsEverySettingAsARulesFile() {
        MainTest.Run r = run("rules");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(io.ibaccept.rules.RulesReference.render()).startsWith("# ibaccept rule settings: ")
                .contains("\nmemlock.min_kib=unlimited\n").contains("\nsm.count.designated=\n").contains("\ninput.enabled=true\n");
    }

    @Test
    void versionComesFromTheBuild() {
        MainTest.Run r = run("--version");
        assertThat(r.code()).isZero();
        // built from a git checkout, as the tests are: the commit is known
        assertThat(r.out()).matches("(?s)ibaccept \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit [0-9a-f]{7,40}(-dirty)?\\)\\nJava 17.*");
        assertThat(run("analyze", "--version").out()).isEqualTo(r.out());
    }

    @Test
    void completionScriptCoversCommandsAndOptions() {
        MainTest.Run r = run("completion");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_ibaccept")
                .contains("analyze").contains("collect").contains("sim-capture").contains("--only").contains("--fabric-node")
                // value completion from the known lists
                .contains("smpquery-pkeys-peer").contains("bisection");
    }

    @Test
    void unknownOptionsAndBadValuesAreRejected() {
        for (List<String> args : List.<List<String>>of(
                List.of("analyze", "d", "-o", "o", "--frobnicate"),
                List.of("collect", "--nodes", "n1", "-o", "d", "--parallel", "many"),
                List.of("collect", "--nodes", "n1", "-o", "d", "--only", "ibstat,nope"),
                List.of("collect", "--nodes", "n1", "--slurm", "-o", "d"),
                List.of("collect", "-o", "d"),
                List.of("rdma", "--nodes", "n[1-2]", "-o", "d", "--pattern", "star"),
                List.of("rdma", "--nodes", "n[1-2]", "-o", "d", "--transport", "telnet"),
                List.of("bench", "--nodes", "-5"),
                List.of("analyze", "d", "e", "-o", "o"),
                List.of("frobnicate"),
                List.<String>of())) {
            MainTest.Run r = run(args.toArray(String[]::new));
            assertThat(r.code()).as(args.toString()).isEqualTo(2);
            assertThat(r.err()).as(args.toString()).startsWith("ibaccept: ").doesNotContain("\tat ").doesNotContain("Exception");
        }
        assertThat(run("analyze", "d", "-o", "o", "--frobnicate").err()).startsWith("ibaccept: unknown option '--frobnicate'\n");
        // a mistyped option is named with the one it is closest to, before what picocli makes of it
        assertThat(run("analyze", "d", "--ouput", "o").err()).startsWith("ibaccept: unknown option '--ouput' (did you mean '--output'?)\n");
        assertThat(run("collect", "--nodes", "n1", "-o", "d", "--paralel", "3").err())
                .isEqualTo("ibaccept: unknown option '--paralel' (did you mean '--parallel'?)\nTry 'ibaccept collect --help' for the options.\n");
        assertThat(run("collect", "--nodes", "n1", "-o", "d", "--parallel", "many").err())
                .startsWith("ibaccept: Invalid value for option '--parallel': 'many' is not an int");
        assertThat(run("collect", "--nodes", "n1", "-o", "d", "--only", "ibstat,nope").err())
                .startsWith("ibaccept: Invalid value for option '--only' (CMD): unknown command 'nope' (known: ibstat, smpquery-portinfo,");
        assertThat(run("collect", "-o", "d").err()).contains("(--nodes=HOSTLIST | --hostfile=FILE | --slurm)");
        assertThat(run("rdma", "--nodes", "n[1-2]", "-o", "d", "--pattern", "star").err())
                .contains("expected one of all-pairs, ring, bisection, one-to-all, found 'star'");
        assertThat(run("collect", "--nodes", "n1", "-o", "d", "--only", "ethtool-S").err()).isEqualTo("ibaccept: --only ethtool-S needs --ethtool IFACE\n");
    }

    @Test
    void sshOptionsThatLookLikeOptionsAreTakenVerbatim() {
        picocli.CommandLine cl = Main.commandLine(System.out, System.err);
        picocli.CommandLine.ParseResult p = cl.parseArgs("collect", "--nodes", "n1", "-o", "d", "--ssh-opt", "-oProxyJump=bastion", "--ssh-opt", "-v");
        CollectCommand c = (CollectCommand) p.subcommand().commandSpec().userObject();
        assertThat(c.transport.sshOpts).containsExactly("-oProxyJump=bastion", "-v");
        assertThat(c.out).hasToString("d");
    }

    @Test
    void aCollectionWhoseOutputsMostlyFailedSaysSoAndExits1(@TempDir Path tmp) {
        // a probe command that does not exist: the one output fails whatever is installed here
        MainTest.Run r = run("collect", "--transport", "local", "--nodes", "localhost", "--only", "native-probe", "--probe-cmd",
                tmp.resolve("no-such-probe").toString(), "-o", tmp.resolve("d").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).startsWith("dump written to ");
        assertThat(r.err()).contains("ibaccept: 1 of 1 command outputs failed").contains("the dump judges little");
        assertThat(tmp.resolve("d/nodes/localhost/native-probe.meta")).exists();
    }

    @Test
    void onlyRecollectsTheNamedCommandsAndKeepsTheRestOfTheDump(@TempDir Path tmp) throws Exception {
        Path dump = tmp.resolve("d");
        new DumpWriter(dump).manifest(new Manifest(Manifest.FORMAT, "c1", "2026-12-01T10:00:00Z", "ibaccept collect", "n1", List.of("n1", "n2"), Map.of()));
        new DumpWriter(dump).write("nodes/n1/ibstat.out", "collected before\n");
        MainTest.Run r = run("collect", "--transport", "local", "--nodes", "localhost", "--only", "ulimit-l", "-o", dump.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("localhost").contains("ulimit-l").contains("collected 1 command outputs");
        assertThat(dump.resolve("nodes/localhost/ulimit-l.out")).exists();
        assertThat(dump.resolve("nodes/localhost/ibstat.out")).doesNotExist();
        assertThat(dump.resolve("fabric/ibnetdiscover.out")).doesNotExist();
        assertThat(dump.resolve("nodes/n1/ibstat.out")).hasContent("collected before");
        Manifest m = Manifest.parse(new Text(Manifest.FILE, Files.readString(dump.resolve(Manifest.FILE))));
        assertThat(m.nodes()).containsExactly("n1", "n2", "localhost");
        assertThat(m.cluster()).isEqualTo("c1");
        assertThat(m.created()).isEqualTo("2026-12-01T10:00:00Z");
    }

    @Test
    void theInputFixNamesAnOptionThatExists() throws Exception {
        String rules = String.join("\n", io.ibaccept.rules.RuleConfig.defaults().asProperties().values().stream().map(Object::toString).toList());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("ibaccept (analyze|collect|rdma|burn|diff|bench|probe|sim-capture) [^'\\n]*?(--[a-z][a-z-]*)").matcher(rules);
        int seen = 0;
        while (m.find()) {
            seen++;
            assertThat(run(m.group(1), "--help").out()).as(m.group()).contains(m.group(2));
        }
        assertThat(seen).as("fix texts naming an ibaccept option").isPositive();
    }
}
