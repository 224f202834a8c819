package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.Ibstat;
import java.util.List;
import org.junit.jupiter.api.Test;

class IbstatParserTest {
    @Test
    void parsesSimulatorOutput() {
        List<Ibstat.Ca> cas = IbstatParser.parse(Fixtures.load("sim/ibstat.out"));
        assertThat(cas).hasSize(1);
        Ibstat.Ca ca = cas.get(0);
        assertThat(ca.name()).isEqualTo("ibsim0");
        assertThat(ca.nodeGuid()).isEqualTo(0x100004L);
        Ibstat.Port p = ca.ports().get(0);
        assertThat(p.state()).isEqualTo("Active");
        assertThat(p.baseLid()).isEqualTo(8);
        assertThat(p.smLid()).isEqualTo(1);
        assertThat(p.portGuid()).isEqualTo(0x100005L);
        assertThat(p.ref().toString()).isEqualTo("sim/ibstat.out:8");
    }

    @Test
    void parsesTwoPortMlx5HostWithDownPort() {
        List<Ibstat.Ca> cas = IbstatParser.parse(Fixtures.load("hw/ibstat-mlx5.out"));
        assertThat(cas).extracting(Ibstat.Ca::name).containsExactly("mlx5_0", "mlx5_1");
        assertThat(cas.get(0).firmware()).isEqualTo("20.31.1014");
        assertThat(cas.get(0).ports().get(0).rate()).isEqualTo(200);
        assertThat(cas.get(1).ports().get(0).state()).isEqualTo("Down");
        assertThat(cas.get(1).ports().get(0).physicalState()).isEqualTo("Disabled");
    }

    @Test
    void truncatedOutputNamesTheCaLine() {
        assertThatThrownBy(() -> IbstatParser.parse(Fixtures.truncated("hw/ibstat-mlx5.out", 20)))
                .isInstanceOf(ParseException.class)
                .hasMessage("hw/ibstat-mlx5.out:18: CA 'mlx5_1' announces 1 port(s) but lists 0 (truncated output?)");
    }

    @Test
    void garbageIsRejectedWithLine() {
        assertThatThrownBy(() -> IbstatParser.parse(new Text("x/ibstat.out", "\nbash: ibstat: command not found\n")))
                .hasMessageStartingWith("x/ibstat.out:2: expected \"CA '<name>'\" header");
    }

    @Test
    void badGuidNamesLine() {
        String s = "CA 'mlx5_0'\n\tNode GUID: 0xZZ\n";
        assertThatThrownBy(() -> IbstatParser.parse(new Text("f", s)))
                .hasMessage("f:2: expected a hexadecimal number, found '0xZZ'");
    }
}
