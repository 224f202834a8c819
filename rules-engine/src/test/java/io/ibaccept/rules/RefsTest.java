package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.dump.DumpLoader;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The typed references of the demo dump's findings, as each check declares how it names what it judges. */
class RefsTest {
    static Report demo;

    @BeforeAll
    static void analyse() {
        demo = Analysis.of(DumpLoader.load(TestDump.DEMO)).report();
    }

    static Finding first(String check, String summaryPart) {
        return demo.findings().stream().filter(f -> f.check().equals(check) && f.summary().contains(summaryPart)).findFirst().orElseThrow();
    }

    static List<String> keys(Finding f) {
        return f.refs().stream().map(Ref::key).toList();
    }

    @Test
    void aDownPortReferencesItsPortAndHost() {
        Finding f = first("port.state", "node16/ibsim0 port 1");
        assertThat(f.refs()).contains(new Ref.Port("node16", 1));
    }

    @Test
    void aCableFindingReferencesTheCableWithBothEndsAndItsHcaEnd() {
        Finding f = first("link.width", "node06 HCA-1 port 1");
        assertThat(f.refs()).contains(new Ref.Port("node06", 1), new Ref.Port("leaf02", 2), new Ref.HcaEnd("node06"));
        assertThat(f.refs()).filteredOn(r -> r instanceof Ref.Cable).singleElement()
                .satisfies(c -> assertThat(((Ref.Cable) c).ends()).contains("node06").contains("leaf02 port 2"));
    }

    @Test
    void mlxlinkNamesTheHostAndMeansItsCable() {
        Finding f = first("mlxlink", "status 1024");
        assertThat(f.refs()).contains(new Ref.Port("node11", 1), new Ref.HcaEnd("node11")).noneMatch(r -> r instanceof Ref.Host);
    }

    @Test
    void pairTestsReferenceTheirPair() {
        assertThat(first("perftest.bw", "node07->node08").refs()).containsExactly(new Ref.Pair("node08", "node07"));
        assertThat(new Ref.Pair("node08", "node07").a()).isEqualTo("node07");
    }

    @Test
    void ibdiagnetMessagesReferenceThePortsTheyName() {
        assertThat(keys(first("ibdiagnet", "leaf03/U1/P3<-->node11/U1/P1"))).contains("port:leaf03:3", "port:node11:1");
    }

    @Test
    void subnetManagersAndHostsAreTyped() {
        Finding sm = first("sm.config.priority", "node01");
        assertThat(sm.refs()).contains(new Ref.Sm("node01"), new Ref.Host("node01"), new Ref.Sm("node02"));
        assertThat(first("sm.priority", "share priority").refs()).contains(new Ref.Sm("SM lid 1"), new Ref.Sm("SM lid 5"));
        assertThat(first("memlock", "node09").refs()).containsExactly(new Ref.Host("node09"));
    }

    /** The root-cause pass puts the ibdiagnet message about leaf03 port 3 under the cable finding of that port. */
    @Test
    void toolMessagesGoUnderTheRootOfTheirCable() {
        Finding msg = first("ibdiagnet", "leaf03/U1/P3<-->node11/U1/P1");
        assertThat(msg.parent()).isNotNull();
        Finding root = demo.findings().stream().filter(f -> f.id().equals(msg.parent())).findFirst().orElseThrow();
        assertThat(root.check()).isIn("link.errors", "link.speed");
        assertThat(keys(root)).anyMatch(k -> k.startsWith("cable:") && k.contains("leaf03 port 3"));
    }
}
