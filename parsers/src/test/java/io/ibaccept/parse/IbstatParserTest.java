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

    /**
     * ibstat stops at the first CA it cannot open, with libibmad's ibpanic() on stderr; kept with the output (a ticket's
     * paste, a collection with 2>&1), the CAs before it are kept and the abort is one issue at its line. The CAs are the
     * first two of a real ibstat (real/ibstat/gpud-h100-cx7-ndr-active.txt); the ibpanic line is what infiniband-diags'
     * ibstat printed for a device it could not find ('ibstat nosuchdev', exit 255), with that CA's name.
     */
    @Test
    void anAbortedIbstatKeepsTheCasBeforeAndSaysItIsIncomplete() {
        String first = RealSamplesTest.real("ibstat/gpud-h100-cx7-ndr-active.txt").content().lines().limit(34)
                .collect(java.util.stream.Collectors.joining("\n"));
        String panic = "ibpanic: [30717] main: stat of IB device 'mlx5_4' failed: Success";
        Issues issues = Issues.collecting();
        List<Ibstat.Ca> cas = IbstatParser.parse(new Text("nodes/h100/ibstat.out", first + "\n" + panic + "\n"), issues);
        assertThat(cas).extracting(Ibstat.Ca::name).containsExactly("mlx5_0", "mlx5_1");
        assertThat(issues.list()).singleElement().satisfies(e -> {
            assertThat(e.where().toString()).isEqualTo("nodes/h100/ibstat.out:35");
            assertThat(e.reason()).startsWith("ibstat aborted: '" + panic + "'").contains("not a host without ports");
        });
        // nothing listed before the abort: the abort is the problem, not "not ibstat output"
        assertThatThrownBy(() -> IbstatParser.parse(new Text("nodes/h100/ibstat.out", "ibpanic: [30717] main: 'mlx5_9' IB device can't be found: Success\n")))
                .isInstanceOf(ParseException.class).hasMessageStartingWith("nodes/h100/ibstat.out:1: ibstat aborted: ");
    }

    /**
     * A real ibstat (real/ibstat/gpud-h100-cx7-ndr-active.txt) with its GUIDs redacted as they are published: every CA
     * and port kept, the GUIDs unknown (0), one issue at the first of them.
     */
    @Test
    void redactedGuidsAreNoValuesAndOneIssue() {
        Text real = RealSamplesTest.real("ibstat/gpud-h100-cx7-ndr-active.txt");
        List<Ibstat.Ca> plain = IbstatParser.parse(real);
        String masked = real.content().replaceAll("0x([0-9a-f]{6})[0-9a-f]{6}([0-9a-f]{4})", "0x$1xxxxxx$2");
        assertThat(masked).contains("Node GUID: 0xa088c2xxxxxx");
        Issues issues = Issues.collecting();
        List<Ibstat.Ca> cas = IbstatParser.parse(new Text(real.name(), masked), issues);
        assertThat(cas).extracting(Ibstat.Ca::name).isEqualTo(plain.stream().map(Ibstat.Ca::name).toList());
        assertThat(cas).allSatisfy(ca -> {
            assertThat(ca.nodeGuid()).isZero();
            assertThat(ca.ports()).isNotEmpty().allSatisfy(p -> assertThat(p.portGuid()).isZero());
        });
        assertThat(cas.get(0).ports().get(0).state()).isEqualTo(plain.get(0).ports().get(0).state());
        assertThat(issues.list()).singleElement().satisfies(e -> {
            assertThat(e.where().line()).isEqualTo(6);
            assertThat(e.reason()).contains("GUID value(s) are redacted").contains("not read as GUIDs");
        });
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
