package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.Lft;
import org.junit.jupiter.api.Test;

/** ibroute captured on ibsim: leaf01 routed by ftree, and the same switch with port 17 disabled and not re-routed yet. */
class IbrouteParserTest {
    @Test
    void realTablesBeforeAndAfterAPortIsDisabled() {
        Lft before = IbrouteParser.parse(RealSamplesTest.real("ibroute/ibsim-ft9-leaf01-ftree.txt"), Issues.strict());
        assertThat(before.switchLid()).isEqualTo(4);
        assertThat(before.switchGuid()).isEqualTo(0x200002L);
        assertThat(before.switchName()).isEqualTo("leaf01");
        assertThat(before.ports()).hasSize(14).containsEntry(1, 1).containsEntry(4, 0).containsEntry(9, 17);
        assertThat(before.routedOut(17)).isEqualTo(3);
        assertThat(before.routedOut(19)).isEqualTo(3);
        // destinations behind the disabled port are "(unknown node and type)" but still routed there
        Lft after = IbrouteParser.parse(RealSamplesTest.real("ibroute/ibsim-ft9-leaf01-port17-disabled.txt"), Issues.strict());
        assertThat(after.routedOut(17)).isEqualTo(3);
    }

    @Test
    void aDamagedEntryIsOneIssueAndAMissingHeadingIsAnError() {
        Issues issues = Issues.collecting();
        String text = String.join("\n", RealSamplesTest.real("ibroute/ibsim-ft9-leaf01-ftree.txt").lines()).replace("0x0009 017 :", "0x0009 01? :");
        Lft t = IbrouteParser.parse(new Text("ibroute", text), issues);
        assertThat(issues.list()).singleElement().satisfies(e -> assertThat(e.where().line()).isEqualTo(12));
        assertThat(t.ports()).hasSize(13);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> IbrouteParser.parse(new Text("ibroute", "0x0001 001 : (x)\n"), Issues.strict()))
                .hasMessageContaining("no 'Unicast lids");
    }
}
