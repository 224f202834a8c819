package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpsOutputsTest {
    static Report demo;

    @BeforeAll
    static void load() {
        demo = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(ReportRenderingTest.DEMO));
    }

    static List<String> config(String text) {
        return text.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }

    @Test
    void topologyConfOfTheDemoDump() {
        // hand-checked against sample-dumps/dumps/demo-hdr16/fabric/ibnetdiscover.out: four leaves with their CAs
        // (node16's port is down, so it is not in the fabric), two spines each cabled to all four leaves
        assertThat(config(OpsOutputs.topologyConf(new ReportFacts(Analysis.of(demo))))).containsExactly(
                "SwitchName=leaf01 Nodes=node[01-04]",
                "SwitchName=leaf02 Nodes=node[05-08]",
                "SwitchName=leaf03 Nodes=node[09-12]",
                "SwitchName=leaf04 Nodes=node[13-15]",
                "SwitchName=spine01 Switches=leaf[01-04]",
                "SwitchName=spine02 Switches=leaf[01-04]");
    }

    @Test
    void topologyConfUsesManagedSwitchHostnamesAndLeavesOutUnsafeNodeNames() {
        List<String> hosts = new ArrayList<>(IntStream.rangeClosed(1, 79).mapToObj(i -> String.format("cn%03d", i)).toList());
        hosts.add("bad name;x");
        Report r = new Report(Synthetic.cluster(hosts, ""), List.of());
        List<String> lines = config(OpsOutputs.topologyConf(new ReportFacts(Analysis.of(r))));
        assertThat(lines).containsExactly("SwitchName=leaf001 Nodes=cn[001-040]", "SwitchName=leaf002 Nodes=cn[041-079]",
                "SwitchName=spine01 Switches=leaf[001-002]", "SwitchName=spine02 Switches=leaf[001-002]");
        assertThat(OpsOutputs.topologyConf(new ReportFacts(Analysis.of(r)))).contains("# left out: 1 CA(s)");
        assertThat(FabricView.slurmName("MF0;ib-leaf-07:MQM8790-HS2X/U1", 1)).isEqualTo("ib-leaf-07");
        assertThat(FabricView.slurmName("Mellanox Technologies Aggregation Node", 1)).isEqualTo("Mellanox_Technologies_Aggregation_Node");
        assertThat(FabricView.slurmName("", 0x2c90300a1b2c3L)).isEqualTo("sw0002c90300a1b2c3");
    }

    @Test
    void nodeNameMapAndNhc() {
        List<String> map = config(OpsOutputs.nodeNameMap(new ReportFacts(Analysis.of(demo))));
        assertThat(map).hasSize(21).contains("0x0000000000200000 \"spine01\"", "0x0000000000100000 \"node01 HCA-1\"");
        String nhc = OpsOutputs.nhcConf(new ReportFacts(Analysis.of(demo)));
        // ibsim reports rate 104 for its HDR ports; node06 runs 1X (26) and is held to the fabric's rate
        assertThat(config(nhc)).containsExactly(" {node[01-15]} || check_hw_ib 104 ibsim0:1",
                " * || check_cmd_output -t 5 -m '/^unlimited$/' /bin/sh -c 'ulimit -l'");
        assertThat(nhc).contains("# node06 ibsim0:1: measured 26 Gb/s, below the fabric's 104");
    }

    @Test
    void drainScriptPassesHostileValuesAsPlainArguments(@TempDir Path tmp) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")));
        List<String> hosts = List.of("node01", "n;touch${IFS}pwned1", "$(touch${IFS}pwned2)", "`touch${IFS}pwned3`", "it's", "a\nb", "-rf", "x|tee${IFS}pwned5");
        List<Finding> fs = new ArrayList<>();
        for (String h : hosts)
            fs.add(new Finding("memlock", "t", Status.FAIL, List.of(h), List.of(Evidence.of("x", "")),
                    h + ": limit 64 KiB; $(touch pwned4) 'q' \"d\"", "c", "f"));
        fs.add(new Finding("pcie", "t", Status.WARN, List.of("node02"), List.of(), "warn only", "c", "f"));
        Report r = new Report(Synthetic.cluster(hosts, ""), fs);
        String script = OpsOutputs.drainSh(new ReportFacts(Analysis.of(r)));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path log = tmp.resolve("argv.log");
        Path fake = bin.resolve("scontrol");
        Files.writeString(fake, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\" >> '" + log + "'; done\nprintf '\\n\\0' >> '" + log + "'\n");
        fake.toFile().setExecutable(true);
        Files.writeString(tmp.resolve("drain.sh"), script);
        // only the fake scontrol may ever be found
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "drain.sh").directory(tmp.toFile()).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("out.txt").toFile());
        pb.environment().put("PATH", bin + ":/usr/bin:/bin");
        assertThat(pb.start().waitFor()).isZero();
        try (var files = Files.list(tmp)) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.startsWith("pwned"));
        }
        List<List<String>> calls = new ArrayList<>();
        List<String> cur = new ArrayList<>();
        for (String a : new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\0")) {
            if (a.equals("\n")) { calls.add(cur); cur = new ArrayList<>(); } else cur.add(a);
        }
        assertThat(calls).hasSize(hosts.size());
        for (String h : hosts)
            assertThat(calls).as(h).anySatisfy(c -> assertThat(c).containsExactly("update", "nodename=" + h, "state=drain",
                    "reason=memlock: " + h.replace('\n', ' ') + ": limit 64 KiB; $(touch pwned4) 'q' \"d\""));
        assertThat(script).doesNotContain("node02");
        assertThat(Arrays.asList(script.split("\n"))).filteredOn(l -> l.startsWith("scontrol")).hasSize(hosts.size());
    }
}
