package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.Resilience;
import org.junit.jupiter.api.Test;

/** The record 'ibaccept resilience' writes, read back: a real one from ibsim, one with a damaged loss line, a cut one. */
class ResilienceParserTest {
    static String real() {
        return String.join("\n", RealSamplesTest.real("resilience/ibsim-single-uplink-updn.txt").lines()) + "\n";
    }

    @Test
    void aRealRecordNamesTheOneCriticalCableAndItsFix() {
        Resilience r = ResilienceParser.parse(new Text("fabric/resilience.out", real()), Issues.strict());
        assertThat(r.header()).containsEntry("engine", "updn").containsKey("twin");
        assertThat(r.losses()).hasSize(5);
        assertThat(r.healthyWorstUplink()).isEqualTo(4);
        assertThat(r.critical()).singleElement().satisfies(l -> {
            assertThat(l.name()).isEqualTo("leaf03 port 9 <-> spine01 port 3");
            assertThat(l.cutOff()).containsExactly("leaf03");
            assertThat(l.unreachable()).isEqualTo(2);
            assertThat(l.fix()).startsWith("add a cable: leaf03");
            assertThat(l.ref().toString()).isEqualTo("fabric/resilience.out:11");
        });
        assertThat(r.pageOneLine()).isEqualTo("survives the loss of any one ISL: no (1 critical cable)");
    }

    @Test
    void aDamagedLossLineIsOneIssueAndTheOthersAreKept() {
        String text = real().replace("loss cable\tleaf01 port 9 <-> spine01 port 1\tunreachable=0", "loss cable\tleaf01 port 9 <-> spine01 port 1\tunreachable=x");
        Issues issues = Issues.collecting();
        Resilience r = ResilienceParser.parse(new Text("fabric/resilience.out", text), issues);
        assertThat(issues.list()).singleElement().satisfies(e -> assertThat(e.where().line()).isEqualTo(7));
        assertThat(r.losses()).hasSize(4);
    }

    @Test
    void aRecordCutBeforeItsCoverageLineIsNotARun() {
        String cut = real().substring(0, real().indexOf("coverage: "));
        assertThatThrownBy(() -> ResilienceParser.parse(new Text("fabric/resilience.out", cut), Issues.collecting()))
                .hasMessageContaining("did not finish");
    }

    @Test
    void theRoutingFilesOpensmNamesAreReadEachWithItsPathAndAnUnreadableOneHasNoText() {
        String real = String.join("\n", RealSamplesTest.real("opensm/opensm-routing-files-ibsim-ring4-updn-root.txt").lines()) + "\n";
        var files = SmConfigParser.routingFiles(new Text("nodes/node01/opensm-routing-files.out", real + "### cn_guid_file /etc/opensm/cn.txt\n### unreadable\n"),
                Issues.strict()).files();
        assertThat(files.get("root_guid_file").text()).isEqualTo("0x0000000000200002\n\n");
        assertThat(files.get("root_guid_file").path()).endsWith("/roots.txt");
        assertThat(files.get("cn_guid_file").text()).isNull();
        assertThat(files.get("cn_guid_file").ref().toString()).isEqualTo("nodes/node01/opensm-routing-files.out:4");
    }
}
