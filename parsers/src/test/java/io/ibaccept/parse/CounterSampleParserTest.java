package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.CounterSample;
import org.junit.jupiter.api.Test;

class CounterSampleParserTest {
    static CounterSample.Port port(CounterSample s, int lid, int port) {
        return s.ports().stream().filter(p -> p.lid() == lid && p.port() == port).findFirst().orElseThrow();
    }

    @Test
    void simSampleMergesExtendedAndPlainBlocksPerPort() {
        CounterSample s = CounterSampleParser.parse(Fixtures.load("sim/counters-sample.out"), Issues.strict());
        assertThat(s.ports()).extracting(CounterSample.Port::key).containsExactly("4:1", "4:2", "4:17", "5:1");
        CounterSample.Port p = port(s, 4, 2);
        // the 32-bit PortRcvData is saturated; the extended one is what counts
        assertThat(p.counters().get("PortRcvData")).isEqualTo(648);
        assertThat(p.extended()).contains("PortRcvData", "PortXmitData").doesNotContain("SymbolErrorCounter");
        assertThat(p.counters().get("SymbolErrorCounter")).isEqualTo(65535);
        assertThat(p.counters()).containsKey("PortXmitWait").doesNotContainKey("PortSelect");
        assertThat(p.ref().toString()).isEqualTo("sim/counters-sample.out:12");
    }

    @Test
    void realExtendedCountersWithErrorCountersAre64Bit() {
        CounterSample s = CounterSampleParser.parse(Fixtures.load("hw/perfquery-x-edr-ca.out"), Issues.strict());
        CounterSample.Port p = port(s, 134, 1);
        assertThat(p.counters().get("PortRcvData")).isEqualTo(9752484588300L);
        assertThat(p.extended()).contains("SymbolErrorCounter", "LinkDownedCounter", "PortXmitWait");
    }

    @Test
    void oneBadValueIsOneUnreadableRecordNotALostFile() {
        String text = Fixtures.load("sim/counters-sample.out").content().replace("PortXmitPkts:....................9\n", "PortXmitPkts:....................x9\n")
                .replaceFirst("PortMulticastRcvPkts:", "garbage line\nPortMulticastRcvPkts:");
        Issues issues = Issues.collecting();
        CounterSample s = CounterSampleParser.parse(new Text("fabric/counters-start.out", text), issues);
        assertThat(s.ports()).hasSize(4);
        // one issue per unreadable record (the bad value in both the extended and the plain block, the garbage line)
        assertThat(issues.list()).hasSize(3);
        assertThat(issues.list()).extracting(e -> e.where().file()).containsOnly("fabric/counters-start.out");
        assertThat(issues.list()).allSatisfy(e -> assertThat(e.where().line()).isPositive());
        assertThat(port(s, 4, 2).counters()).containsKey("PortXmitData");
    }

    @Test
    void nothingUsableIsAnError() {
        assertThatThrownBy(() -> CounterSampleParser.parse(new Text("f", "ibwarn: mad_rpc failed\n"), Issues.collecting()))
                .isInstanceOf(ParseException.class);
    }

    @Test
    void aHugeHostileLineIsReadInLinearTime() {
        // over-long lines are cut by Text; what is left is scanned, never backtracked
        String huge = "# Port counters: Lid " + "1".repeat(5_000_000) + " port" + " ".repeat(2_000_000) + "x\n" + "PortXmitWait:" + ".".repeat(5_000_000) + "z\n";
        long t0 = System.nanoTime();
        Issues issues = Issues.collecting();
        assertThatThrownBy(() -> CounterSampleParser.parse(new Text("f", huge), issues)).isInstanceOf(ParseException.class);
        assertThat(System.nanoTime() - t0).isLessThan(5_000_000_000L);
    }

    @Test
    void uptime() {
        assertThat(CounterSampleParser.uptimeSeconds(new Text("u", "350735.47 234388.90\n"), Issues.strict())).isEqualTo(350735.47);
        assertThatThrownBy(() -> CounterSampleParser.uptimeSeconds(new Text("u", "up 3 days\n"), Issues.strict())).isInstanceOf(ParseException.class);
    }
}
