package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.collect.DrillRefused;
import io.ibaccept.collect.ExecResult;
import io.ibaccept.collect.IslOutageDrill;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.collect.Transports;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.model.Hostlist;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Status;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end, the ISL drill on ibsim with opensm's ftree routing: one leaf-spine port disabled, the real opensm
 * re-routing around it (ibroute shows no LID out of either end), the port enabled and the link back at 4X. ibsim keeps
 * a port Active when ibportstate disables it (a real switch takes the link down), so this transport turns the drill's
 * 'ibportstate LID PORT disable|enable' into the simulator's own Unlink/ReLink of that port; every other command runs
 * on the simulator as it is.
 */
@ExtendWith(RequiresSimulator.class)
class IslDrillE2ETest {
    static final List<String> NODES = Hostlist.expand("node[01-09]");

    @TempDir
    Path tmp;

    /** The sim transport, with ibportstate's disable/enable done through ibsim's console. */
    static final class PortStateThroughConsole extends Transports.Sim {
        private static final Pattern PORTSTATE = Pattern.compile("^ibportstate (\\d+) (\\d+) (disable|enable)$");
        private final SimFabric f;
        final List<String> consoled = new java.util.concurrent.CopyOnWriteArrayList<>();

        PortStateThroughConsole(SimFabric f) {
            super("H-{host}", null, f.sockName());
            this.f = f;
        }

        @Override
        public ExecResult run(String host, String script, Duration timeout) {
            Matcher m = PORTSTATE.matcher(script);
            if (!m.matches()) return super.run(host, script, timeout);
            // the switch at that LID, by the name ibswitches prints
            String sw = null;
            for (String line : super.run(host, "ibswitches", timeout).stdout().split("\n")) {
                Matcher s = Pattern.compile("\"([^\"]+)\" base port 0 lid (\\d+) ").matcher(line);
                if (s.find() && s.group(2).equals(m.group(1))) sw = s.group(1);
            }
            if (sw == null) return new ExecResult(CommandResult.FAILED, 1, "", "no switch at lid " + m.group(1), 0);
            String cmd = (m.group(3).equals("disable") ? "Unlink" : "ReLink") + " \"S-" + sw + "\"[" + m.group(2) + "]";
            f.console(cmd);
            consoled.add(cmd);
            return new ExecResult(CommandResult.OK, 0, "ibsim console: " + cmd + "\n", "", 0);
        }

        @Override
        public ExecResult restore(String host, String script, Duration timeout) {
            return run(host, script, timeout);
        }
    }

    @Test
    void theSmRoutesAroundADisabledLinkAndTheLinkComesBackAsItWas() throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            f.startSm("node01", 15, f.opensmConf("opensm.conf", "-R", "ftree"), null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            PortStateThroughConsole t = new PortStateThroughConsole(f);
            Path dump = tmp.resolve("dump");
            new DumpWriter(dump).manifest(new io.ibaccept.dump.Manifest(io.ibaccept.dump.Manifest.FORMAT, "e2e-isl", java.time.Instant.now().toString(),
                    "test", "node03", NODES, Map.of()));
            IslOutageDrill.Result r = new IslOutageDrill(t, new IslOutageDrill.Options("leaf01", 17, "node03", Duration.ofSeconds(90),
                    Duration.ofSeconds(1), null), new PrintStream(PrintStream.nullOutputStream())).run(new DumpWriter(dump));
            String record = Files.readString(dump.resolve("fabric/isl-drill.out"));
            assertThat(t.consoled).as(record).containsExactly("Unlink \"S-leaf01\"[17]", "ReLink \"S-leaf01\"[17]");
            assertThat(r.rerouteSeconds()).as(record).isNotNull();
            assertThat(r.backSeconds()).as(record).isNotNull();
            assertThat(r.restored()).isTrue();
            assertThat(record).containsPattern("(?m)^link: leaf01 \\(lid \\d+\\) port 17 <-> spine01 \\(lid \\d+\\) port 1$")
                    .containsPattern("(?m)^\\S+ before: Active, 4X \\S+ Gbps; [1-9]\\d* LID\\(s\\) routed out of leaf01/17 \\(14 routed\\), [1-9]\\d* LID\\(s\\) routed out of spine01/1 \\(\\d+ routed\\)$");
            Report rep = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(dump));
            assertThat(rep.findings()).filteredOn(x -> x.check().equals("fabric.isl_drill")).singleElement().satisfies(x -> {
                assertThat(x.status()).as(record).isEqualTo(Status.PASS);
                assertThat(x.summary()).matches("leaf01 \\(lid \\d+\\) port 17 <-> spine01 \\(lid \\d+\\) port 1 disabled: no LID routed over it"
                        + " \\d+\\.\\d s later \\(limit 60 s\\); enabled again, back after \\d+\\.\\d s, Active, 4X \\S+ Gbps;"
                        + " no RDMA pair ran while it was down \\(--pair\\)");
            });
        }
    }

    @Test
    void aHostLinkIsNotAnIslAndNothingIsDisabled() throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            f.startSm("node01", 15, null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            PortStateThroughConsole t = new PortStateThroughConsole(f);
            Path dump = tmp.resolve("dump");
            assertThatThrownBy(() -> new IslOutageDrill(t, new IslOutageDrill.Options("leaf01", 1, "node03", Duration.ofSeconds(30),
                    Duration.ofSeconds(1), null), new PrintStream(PrintStream.nullOutputStream())).run(new DumpWriter(dump)))
                    .isInstanceOf(DrillRefused.class).hasMessageContaining("not cabled to another switch");
            assertThat(t.consoled).isEmpty();
            assertThatThrownBy(() -> new IslOutageDrill(t, new IslOutageDrill.Options("leaf09", 17, "node03", Duration.ofSeconds(30),
                    Duration.ofSeconds(1), null), new PrintStream(PrintStream.nullOutputStream())).run(new DumpWriter(dump)))
                    .isInstanceOf(DrillRefused.class).hasMessageContaining("no switch 'leaf09'");
            assertThat(t.consoled).isEmpty();
        }
    }

    /**
     * ibaccept drill isl in a JVM of its own with the plain sim transport (ibsim keeps the disabled port Active, so the
     * SM never re-routes and the drill waits), stopped with SIGTERM while it waits: the port is enabled again.
     */
    @Test
    void aDrillStoppedWhileItWaitsEnablesThePortAgain() throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            f.startSm("node01", 15, f.opensmConf("opensm.conf", "-R", "ftree"), null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            Path dump = tmp.resolve("dump"), log = tmp.resolve("drill.log");
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:-UsePerfData",
                    "-cp", System.getProperty("java.class.path"), Main.class.getName(), "drill", "isl", "--link", "leaf01:17",
                    "--fabric-node", "node03", "-o", dump.toString(), "--timeout", "5m", "--transport", "sim", "--yes");
            pb.environment().put("IBSIM_SOCKNAME", f.sockName());
            Process p = pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Path record = dump.resolve("fabric/isl-drill.out");
            try {
                long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                while (System.nanoTime() < end && !(Files.exists(record) && Files.readString(record).contains(" disable: leaf01 (lid ")))
                    Thread.sleep(200);
                assertThat(record).as(Files.exists(log) ? Files.readString(log) : "no log").exists();
                Thread.sleep(2000); // waiting for a re-route that ibsim never makes
                p.destroy(); // SIGTERM to the drill, by its pid
                assertThat(p.waitFor(90, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            } finally {
                if (p.isAlive()) p.destroyForcibly();
            }
            String text = Files.readString(record);
            assertThat(text).as(Files.readString(log)).containsPattern("(?m)^\\S+ disable: leaf01 \\(lid \\d+\\) port 17: ok$")
                    .containsPattern("(?m)^\\S+ enable: leaf01 \\(lid \\d+\\) port 17: ok$");
            Matcher lid = Pattern.compile("leaf01 \\(lid (\\d+)\\)").matcher(text);
            assertThat(lid.find()).isTrue();
            assertThat(f.transport().run("node03", "smpquery portinfo " + lid.group(1) + " 17", Duration.ofSeconds(20)).stdout())
                    .doesNotContain("PhysLinkState:...................Disabled");
        }
    }
}
