package io.ibaccept.cli;

import static io.ibaccept.cli.MainTest.DEMO;
import static io.ibaccept.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The options that wire the fabric, diff, RDMA and counter-window features into the command line. */
class CliFeaturesTest {
    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
    }

    @Test
    void analyzeWithNamesAndAPlanWritesTheWorkOrder(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("nnm"), "# site names\n0x200005 \"row12-leaf04\"\n0x200001 \"row10-spine02\"\n");
        // leaf04's uplinks to spine02 (ports 19/20 -> spine02 7/8): the plan has them crossed
        Files.writeString(tmp.resolve("plan.csv"), "switch,port,peer,peer_port\nleaf04,17,spine01,7\nleaf04,18,spine01,8\n"
                + "leaf04,19,spine02,8\nleaf04,20,spine02,7\n");
        MainTest.Run r = run("analyze", DEMO.toString(), "-o", tmp.resolve("o").toString(), "--node-name-map", tmp.resolve("nnm").toString(),
                "--expect", tmp.resolve("plan.csv").toString());
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("wrote " + tmp.resolve("o/workorder.csv"));
        String wo = Files.readString(tmp.resolve("o/workorder.csv"));
        assertThat(wo).startsWith("step,action,device,port,peer_device,peer_port,cable_id,reason,done");
        assertThat(wo.lines().skip(1)).isNotEmpty().allSatisfy(l -> assertThat(l).contains("row12-leaf04"));
        assertThat(wo).contains("row10-spine02");
        Document html = Jsoup.parse(tmp.resolve("o/report.html").toFile(), "UTF-8");
        assertThat(html.select("#work-order-table tbody tr")).hasSize((int) wo.lines().skip(1).count());
        assertThat(html.getElementById("work-order").text()).contains("4 planned cables, 2 as planned");
        assertThat(Files.readString(tmp.resolve("o/findings.csv"))).contains("fabric.plan");
        // the rule configuration is recorded: the cover page lists the thresholds, not "not recorded"
        assertThat(html.getElementById("thresholds").text()).contains("none: all checks used the default thresholds");

        MainTest.Run missing = run("analyze", DEMO.toString(), "-o", tmp.resolve("o2").toString(), "--expect", tmp.resolve("nope.csv").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).startsWith("ibaccept: " + tmp.resolve("nope.csv") + ": cannot read the cabling plan").doesNotContain("\tat ");
    }

    @Test
    void aDrillRefusesWithoutYesAndWithOneSmNodeAndTouchesNothing(@TempDir Path tmp) throws Exception {
        Path dump = tmp.resolve("dump");
        MainTest.Run r = MainTest.run("drill", "sm-failover", "--sm-nodes", "sm01,sm02", "-o", dump.toString(), "--transport", "local");
        assertThat(r.code()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("this drill stops the master SM on sm01 or sm02").contains("add --yes to run it");
        assertThat(dump).doesNotExist();
        MainTest.Run one = MainTest.run("drill", "sm-failover", "--sm-nodes", "sm01", "-o", dump.toString(), "--yes");
        assertThat(one.code()).isEqualTo(Main.USAGE);
        assertThat(one.err()).contains("needs the master's and a standby's node");
        assertThat(dump).doesNotExist();
        MainTest.Run hostile = MainTest.run("drill", "sm-failover", "--sm-nodes", "sm01,a;reboot", "-o", dump.toString(), "--yes");
        assertThat(hostile.code()).isEqualTo(Main.USAGE);
        assertThat(dump).doesNotExist();
        MainTest.Run isl = MainTest.run("drill", "isl", "--link", "leaf03:17", "--fabric-node", "n1", "-o", dump.toString(), "--transport", "local");
        assertThat(isl.code()).isEqualTo(Main.USAGE);
        assertThat(isl.err()).contains("this drill disables port 17 of leaf03").contains("add --yes to run it");
        MainTest.Run badPort = MainTest.run("drill", "isl", "--link", "leaf03:x;reboot", "--fabric-node", "n1", "-o", dump.toString(), "--yes");
        assertThat(badPort.code()).isEqualTo(Main.USAGE);
        assertThat(badPort.err()).contains("SWITCH:PORT with a port of 1-254");
        assertThat(dump).doesNotExist();
    }

    @Test
    void sideInputsAreBoundedWithOneSentenceAndExit2(@TempDir Path tmp) throws Exception {
        Path rules = tmp.resolve("rules.properties");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(rules.toFile(), "rw")) {
            f.setLength(300L << 20);
        }
        MainTest.Run big = run("analyze", DEMO.toString(), "-o", tmp.resolve("o").toString(), "--rules", rules.toString());
        assertThat(big.code()).isEqualTo(2);
        assertThat(big.err()).startsWith("ibaccept: " + rules + ": the rules file is 300.0 MiB, more than 4 MiB: not read").doesNotContain("\tat ");
        Path nnm = tmp.resolve("nnm");
        assertThat(new ProcessBuilder("mkfifo", nnm.toString()).start().waitFor()).isZero();
        MainTest.Run fifo = run("analyze", DEMO.toString(), "-o", tmp.resolve("o").toString(), "--node-name-map", nnm.toString());
        assertThat(fifo.code()).isEqualTo(2);
        assertThat(fifo.err()).isEqualTo("ibaccept: " + nnm + ": the node-name-map is not a regular file\n");
    }

    @Test
    void diffShowsWhatChangedSinceHandover(@TempDir Path tmp) throws Exception {
        Path after = tmp.resolve("after");
        copy(DEMO, after);
        Path ibstat = after.resolve("nodes/node05/ibstat.out");
        String before = Files.readString(ibstat);
        assertThat(before).contains("Firmware version: ");
        Files.writeString(ibstat, before.replaceFirst("Firmware version: \\S+", "Firmware version: 20.99.9999"));
        MainTest.Run r = run("diff", DEMO.toString(), after.toString(), "-o", tmp.resolve("d").toString());
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("node05").contains("20.99.9999").contains("wrote " + tmp.resolve("d/diff.pdf"));
        String csv = Files.readString(tmp.resolve("d/diff.csv"));
        assertThat(csv).startsWith("category,object,before,after,where").contains("20.99.9999");
        Document html = Jsoup.parse(tmp.resolve("d/diff.html").toFile(), "UTF-8");
        assertThat(html.select("#diff-table tbody tr")).hasSize((int) csv.lines().skip(1).count());
        assertThat(html.selectFirst("#diff-table tbody tr").text()).contains("node05");
        // the main report's page: banner in the later verdict's colour, "N changes since <date>", sections as cards
        long rows = csv.lines().skip(1).count();
        assertThat(html.getElementById("verdict").text()).isEqualTo(rows + (rows == 1 ? " change" : " changes") + " since 2026-12-02 14:04:08 UTC");
        assertThat(html.getElementById("banner").hasClass("REJECTED")).isTrue();
        assertThat(html.select("style").html()).contains("header.REJECTED");
        assertThat(html.getElementById("diff-warning")).isNull();
        assertThat(r.err()).doesNotContain("share no node GUID");
        try (var reader = new com.lowagie.text.pdf.PdfReader(tmp.resolve("d/diff.pdf").toString())) {
            String first = new com.lowagie.text.pdf.parser.PdfTextExtractor(reader).getTextFromPage(1);
            assertThat(first).contains(rows + " change").contains("since 2026-12-02 14:04:08 UTC").contains("page 1 of");
        }

        // two different clusters: said at once, in the console and on the page
        MainTest.Run other = run("diff", DEMO.toString(), DEMO.resolveSibling("real-captures").toString(), "-o", tmp.resolve("other").toString());
        assertThat(other.err()).contains("warning: The two dumps share no node GUID");
        assertThat(Jsoup.parse(tmp.resolve("other/diff.html").toFile(), "UTF-8").getElementById("diff-warning").text()).startsWith("The two dumps share no node GUID");

        MainTest.Run same = run("diff", DEMO.toString(), DEMO.toString(), "-o", tmp.resolve("same").toString());
        assertThat(same.code()).as(same.out() + same.err()).isZero();
        assertThat(same.out()).startsWith("0 change(s)");
        assertThat(Files.readString(tmp.resolve("same/diff.html"))).contains("No changes.");
    }

    @Test
    void rdmaOptionsAreCheckedBeforeAnythingRuns(@TempDir Path tmp) {
        MainTest.Run noRef = run("rdma", "--nodes", "n[1-4]", "-o", tmp.toString(), "--pattern", "one-to-all");
        assertThat(noRef.code()).isEqualTo(2);
        assertThat(noRef.err()).isEqualTo("ibaccept: --pattern one-to-all needs --reference NODE\n");
        assertThat(run("rdma", "--nodes", "n[1-4]", "-o", tmp.toString(), "--pattern", "one-to-all", "--reference", "n9").err())
                .isEqualTo("ibaccept: --reference n9 is not one of the nodes\n");
        MainTest.Run badBench = run("rdma", "--nodes", "n[1-4]", "-o", tmp.toString(), "--collective", "osu_allreduce,rm -rf");
        assertThat(badBench.code()).isEqualTo(2);
        assertThat(badBench.err()).startsWith("ibaccept: unknown collective benchmark 'rm -rf'");
        assertThat(run("rdma", "--nodes", "n[1-4]", "-o", tmp.toString(), "--collective", "osu_allreduce", "--sizes", "8").err())
                .isEqualTo("ibaccept: --sizes must be MIN:MAX in bytes, found '8'\n");
        assertThat(run("rdma", "-o", tmp.toString()).err()).startsWith("ibaccept: give the nodes");
        MainTest.Run noRuns = run("rdma", "--retest", "-o", tmp.resolve("empty").toString());
        assertThat(noRuns.code()).isEqualTo(2);
        assertThat(noRuns.err()).contains("no perftest runs to retest");
        RdmaCommand c = (RdmaCommand) Main.commandLine(System.out, System.err).parseArgs("rdma", "--nodes", "n[1-4]", "-o", "d",
                "--pattern", "one-to-all", "--reference", "n2", "--collective", "osu_allreduce,all_reduce_perf", "--launcher", "srun",
                "--ranks-per-node", "4").subcommand().commandSpec().userObject();
        assertThat(c.pattern).isEqualTo(io.ibaccept.rdma.PairScheduler.Pattern.ONE_TO_ALL);
        assertThat(c.collectives).containsExactly("osu_allreduce", "all_reduce_perf");
        assertThat(c.ranksPerNode).isEqualTo(4);
    }

    @Test
    void retestRerunsOnlyTheOutliersAndKeepsTheFirstRuns(@TempDir Path tmp) throws Exception {
        Path dump = tmp.resolve("d");
        copy(DEMO, dump);
        long before;
        try (Stream<Path> s = Files.list(dump.resolve("perftest"))) {
            before = s.count();
        }
        // the local transport runs perftest on this machine: where it is missing the retest is recorded as failed, still next to the first run
        MainTest.Run r = run("rdma", "--retest", "-o", dump.toString(), "--transport", "local", "--timeout-s", "5", "--server-delay-ms", "0");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("retesting ").contains("outlier pair(s): [ib_write_bw]").contains("retest run(s) written to " + dump);
        try (Stream<Path> s = Files.list(dump.resolve("perftest"))) {
            var names = s.map(p -> p.getFileName().toString()).toList();
            assertThat(names).hasSizeGreaterThan((int) before).anyMatch(n -> n.matches("ib_write_bw__node0\\d__node0\\d\\.retest1\\.client\\.meta"))
                    .noneMatch(n -> n.startsWith("ib_read_lat") && n.contains("retest"));
        }
        assertThat(dump.resolve("perftest/ib_write_bw__node07__node08.client.out")).hasSameTextualContentAs(DEMO.resolve("perftest/ib_write_bw__node07__node08.client.out"));
    }

    @Test
    void counterWindowAndBurnOptions(@TempDir Path tmp) {
        CollectCommand c = (CollectCommand) Main.commandLine(System.out, System.err)
                .parseArgs("collect", "--nodes", "n1", "-o", "d", "--window", "10m", "--clear-counters").subcommand().commandSpec().userObject();
        assertThat(c.window).isEqualTo(Duration.ofMinutes(10));
        assertThat(c.clearCounters).isTrue();
        CollectCommand dflt = (CollectCommand) Main.commandLine(System.out, System.err)
                .parseArgs("collect", "--nodes", "n1", "-o", "d", "--window").subcommand().commandSpec().userObject();
        assertThat(dflt.window).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(Durations.parse("45")).isEqualTo(Duration.ofSeconds(45));
        MainTest.Run clearOnly = run("collect", "--nodes", "n1", "-o", tmp.toString(), "--clear-counters");
        assertThat(clearOnly.code()).isEqualTo(2);
        assertThat(clearOnly.err()).isEqualTo("ibaccept: --clear-counters needs --window DURATION\n");
        MainTest.Run badWindow = run("collect", "--nodes", "n1", "-o", tmp.toString(), "--window", "ten");
        assertThat(badWindow.code()).isEqualTo(2);
        assertThat(badWindow.err()).contains("expected a duration like 90s, 10m or 1h30m, found 'ten'");

        MainTest.Run help = run("burn", "--help");
        assertThat(help.out()).contains("--duration=DURATION").contains("--clear-counters").contains("every leaf pair");
        assertThat(run("burn", "--nodes", "n[1-2]", "-o", tmp.toString()).err()).contains("Missing required option: '--duration=DURATION'");
        assertThat(run("burn", "--nodes", "n1", "-o", tmp.toString(), "--duration", "30m").err())
                .isEqualTo("ibaccept: a burn-in needs at least 2 nodes\n");
        assertThat(run("burn", "--nodes", "n[1-2]", "-o", tmp.toString(), "--duration", "30m", "--device", "mlx5_0;reboot").code()).isEqualTo(2);
        BurnCommand b = (BurnCommand) Main.commandLine(System.out, System.err)
                .parseArgs("burn", "--nodes", "n[1-8]", "-o", "d", "--duration", "30m").subcommand().commandSpec().userObject();
        assertThat(b.duration).isEqualTo(Duration.ofMinutes(30));
        BurnCommand auto = (BurnCommand) Main.commandLine(System.out, System.err)
                .parseArgs("burn", "--nodes", "n[1-8]", "-o", "d", "--duration", "auto", "--ber-target", "1e-15").subcommand().commandSpec().userObject();
        assertThat(auto.duration).isNull();
        assertThat(auto.berTarget).isEqualTo(1e-15);
        assertThat(run("burn", "--nodes", "n[1-2]", "-o", tmp.toString(), "--duration", "soon").err()).contains("expected a duration like 90s, 10m or 1h30m, found 'soon'");
        assertThat(b.test).isEqualTo("ib_write_bw");
    }
}
