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
        CounterSample s = CounterSampleParser.parse(Fixtures.load("sim/counters-sample.out"));
        assertThat(s.unreadable()).isEmpty();
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
        CounterSample s = CounterSampleParser.parse(Fixtures.load("hw/perfquery-x-edr-ca.out"));
        CounterSample.Port p = port(s, 134, 1);
        assertThat(p.counters().get("PortRcvData")).isEqualTo(9752484588300L);
        assertThat(p.extended()).contains("SymbolErrorCounter", "LinkDownedCounter", "PortXmitWait");
    }

    @Test
    void oneBadValueIsOneUnreadableRecordNotALostFile() {
        String text = Fixtures.load("sim/counters-sample.out").content().replace("PortXmitPkts:....................9\n", "PortXmitPkts:....................x9\n")
                .replaceFirst("PortMulticastRcvPkts:", "garbage line\nPortMulticastRcvPkts:");
        CounterSample s = CounterSampleParser.parse(new Text("fabric/counters-start.out", text));
        assertThat(s.ports()).hasSize(4);
        assertThat(s.unreadable()).hasSize(3);
        assertThat(s.unreadable()).extracting(u -> u.ref().file()).containsOnly("fabric/counters-start.out");
    }

    @Test
    void nothingUsableIsAnError() {
        assertThatThrownBy(() -> CounterSampleParser.parse(new Text("f", "ibwarn: mad_rpc failed\n")))
                .isInstanceOf(ParseException.class);
    }

    @Test
    void uptime() {
        assertThat(CounterSampleParser.uptimeSeconds(new Text("u", "350735.47 234388.90\n"))).isEqualTo(350735.47);
        assertThatThrownBy(() -> CounterSampleParser.uptimeSeconds(new Text("u", "up 3 days\n"))).isInstanceOf(ParseException.class);
    }
}
