package io.ibaccept.parse;

import static io.ibaccept.parse.RealSamplesTest.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.Ibdiagnet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ibdiagnet2.sm and ibdiagnet2.pkey of the real 272-node NDR fabric (real/SOURCES.md), and damaged copies of them. */
class IbdiagnetSmPkeyTest {

    @Test
    void smReportOfTheNdrFabricNamesItsOneMasterOnASwitch() {
        for (String f : List.of("ibdiagnet2.sm/gary-minghuili-ndr-quantum2-full.txt", "ibdiagnet2.sm/gary-minghuili-ndr-quantum2-skip.txt")) {
            List<Ibdiagnet.Sm> sms = RealSamplesTest.clean(f, IbdiagnetParser::sm);
            assertThat(sms).as(f).singleElement().satisfies(s -> {
                assertThat(s.state()).isEqualTo("master");
                assertThat(s.isMaster()).isTrue();
                assertThat(s.port()).isZero();
                assertThat(s.lid()).isEqualTo(0xb4);
                assertThat(s.guid()).isEqualTo(0xb0cf0e0300d33fc0L);
                assertThat(s.device()).isEqualTo(54002);
                assertThat(s.priority()).isEqualTo(12);
                assertThat(s.ref().line()).isEqualTo(11);
            });
        }
    }

    @Test
    void pkeyReportOfTheNdrFabricKeepsEveryMember() {
        List<Ibdiagnet.PkeyGroup> groups = RealSamplesTest.clean("ibdiagnet2.pkey/gary-minghuili-ndr-quantum2-full.txt", IbdiagnetParser::pkey);
        assertThat(groups).singleElement().satisfies(g -> {
            assertThat(g.pkey()).isEqualTo(0x7fff);
            assertThat(g.partition()).isEqualTo(0x7fff);
            assertThat(g.hosts()).isEqualTo(272);
            assertThat(g.members()).hasSize(272).allSatisfy(m -> assertThat(m.full()).isTrue());
            Ibdiagnet.PkeyMember sw = g.members().get(0);
            assertThat(sw.name()).isEqualTo("ib-switch-sequoia/U1/P0");
            assertThat(sw.port()).isZero();
            assertThat(sw.lid()).isEqualTo(0xb4);
            assertThat(sw.guid()).isEqualTo(0xb0cf0e0300d33fc0L);
            assertThat(sw.ref().line()).isEqualTo(16);
            Ibdiagnet.PkeyMember ca = g.members().get(4);
            assertThat(ca.name()).isEqualTo("is-north-7-compute-19/mlx5_10/B184D0F0/0/0/1");
            assertThat(ca.port()).isEqualTo(1);
            assertThat(ca.guid()).isEqualTo(0x5c25730300e66caeL);
            assertThat(ca.device()).isEqualTo(4129);
            assertThat(g.members()).filteredOn(m -> m.device() == 53001).isNotEmpty()
                    .allSatisfy(m -> assertThat(m.port()).isEqualTo(1));
        });
    }

    @Test
    void aDamagedRecordIsOneProblemWithItsLineAndTheOthersAreKept() {
        String text = real("ibdiagnet2.pkey/gary-minghuili-ndr-quantum2-full.txt").lines().stream().reduce((a, b) -> a + "\n" + b).orElseThrow()
                .replace("  Full is-north-7-compute-2/mlx5_8/B134D0F0/0/0/1 lid=0x0001", "  Fuzz is-north-7-compute-2/mlx5_8/B134D0F0/0/0/1 lid=0x0001")
                .replace("  Full is-north-7-compute-3/mlx5_8/B134D0F0/0/0/1 lid=0x00c4 guid=0x5c25730300a1f4dc",
                        "  Limited is-north-7-compute-3/mlx5_8/B134D0F0/0/0/1 lid=0x00c4 guid=0xZZ");
        Parsed<List<Ibdiagnet.PkeyGroup>> p = Parsing.run(new Text("fabric/ibdiagnet2.pkey.out", text), IbdiagnetParser::pkey);
        assertThat(p.issues()).extracting(e -> e.where().toString()).containsExactly("fabric/ibdiagnet2.pkey.out:22", "fabric/ibdiagnet2.pkey.out:27");
        assertThat(p.value()).singleElement().satisfies(g -> assertThat(g.members()).hasSize(270));

        String smText = real("ibdiagnet2.sm/gary-minghuili-ndr-quantum2-full.txt").lines().stream().reduce((a, b) -> a + "\n" + b).orElseThrow()
                .replace("guid=0xb0cf0e0300d33fc0", "guid=0xb0cf0e03zz");
        Parsed<List<Ibdiagnet.Sm>> sm = Parsing.run(new Text("fabric/ibdiagnet2.sm.out", smText), IbdiagnetParser::sm);
        assertThat(sm.issues()).extracting(e -> e.where().toString()).containsExactly("fabric/ibdiagnet2.sm.out:11");
        assertThat(sm.value()).isEmpty();
    }

    @Test
    void anotherFileIsNotReadAsAnSmOrPkeyReport() {
        Text other = real("ibdiagnet2.log/gary-minghuili-ndr-quantum2-full.txt");
        assertThat(Parsing.run(other, IbdiagnetParser::sm).value()).isNull();
        assertThat(Parsing.run(real("ibdiagnet2.sm/gary-minghuili-ndr-quantum2-full.txt"), IbdiagnetParser::pkey).value()).isNull();
    }
}
