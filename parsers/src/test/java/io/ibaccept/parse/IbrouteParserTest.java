package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.ForwardingTables;
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
        assertThat(before.routed()).isEqualTo(14);
        assertThat(before.port(1)).isEqualTo(1);
        assertThat(before.port(4)).isZero();
        assertThat(before.port(9)).isEqualTo(17);
        assertThat(before.port(15)).isEqualTo(-1);
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
        assertThat(t.routed()).isEqualTo(13);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> IbrouteParser.parse(new Text("ibroute", "0x0001 001 : (x)\n"), Issues.strict()))
                .hasMessageContaining("'Unicast lids");
    }

    /** ibroute's own words for an entry with no valid port, "(illegal port)" and "(path #N - illegal port)": not routed. */
    @Test
    void illegalPortEntriesAreNotRouted() {
        Issues issues = Issues.collecting();
        String text = String.join("\n", RealSamplesTest.real("ibroute/ibsim-ft9-leaf01-ftree.txt").lines());
        text = text.replaceFirst("0x0009 017 : \\([^\n]*\\)", "0x0009 017 : (illegal port)")
                .replaceFirst("0x0001 001 : \\([^\n]*\\)", "0x0001 001 : (path #1 - illegal port)");
        Lft t = IbrouteParser.parse(new Text("ibroute", text), issues);
        assertThat(issues.list()).isEmpty();
        assertThat(t.port(9)).isEqualTo(-1);
        assertThat(t.port(1)).isEqualTo(-1);
        assertThat(t.routed()).isEqualTo(12);
    }

    @Test
    void dumpFtsOfAFatTreeReadsEveryTableAndWhatEachLidIs() {
        ForwardingTables t = IbrouteParser.fabric(RealSamplesTest.real("dump_fts/ibsim-2s4l-ftree.txt"), Issues.strict());
        // as its 'N valid lids dumped' lines say: 22 per leaf, 21 per spine
        assertThat(t.switches()).hasSize(6).allSatisfy(l -> assertThat(l.routed()).isEqualTo(l.switchName().startsWith("leaf") ? 22 : 21));
        Lft leaf01 = t.switches().stream().filter(l -> l.switchName().equals("leaf01")).findFirst().orElseThrow();
        // dump_fts heads a table with its DR path: the switch's LID is its port-0 entry
        assertThat(leaf01.switchLid()).isEqualTo(4);
        assertThat(leaf01.switchGuid()).isEqualTo(0x200002L);
        assertThat(leaf01.ref().line()).isEqualTo(129);
        assertThat(leaf01.port(0x13)).isEqualTo(33);
        assertThat(t.destinations()).hasSize(22);
        assertThat(t.destinations().get(1)).isEqualTo(new ForwardingTables.Destination(1, "Channel Adapter", 0x100001L, "node01 HCA-1"));
        assertThat(t.destinations().get(2).isSwitch()).isTrue();
    }

    @Test
    void theFurtherLidsOfAnLmcRangeNameTheirPortAndElidedLinesAreOneIssueEach() {
        Issues issues = Issues.collecting();
        // a real table quoted with '...' where the admin cut it
        ForwardingTables t = IbrouteParser.fabric(RealSamplesTest.real("dump_fts/llnl-minos-ibroute-lmc2-excerpt.txt"), issues);
        assertThat(issues.list()).extracting(e -> e.where().line()).containsExactly(7, 14, 18);
        assertThat(t.switches()).singleElement().satisfies(l -> {
            assertThat(l.switchLid()).isEqualTo(11);
            assertThat(l.switchName()).isEqualTo("ISR9024D Voltaire");
            assertThat(l.routed()).isEqualTo(16);
            assertThat(l.port(0x406)).isEqualTo(3);
        });
        for (int lid = 0x404; lid <= 0x407; lid++)
            assertThat(t.destinations().get(lid)).satisfies(d -> {
                assertThat(d.portGuid()).isEqualTo(0x0002c9020024d3e1L);
                assertThat(d.description()).isEqualTo("minos703");
            });
    }

    @Test
    void aSwitchDumpFtsCouldNotReadAndATableCutShortAreNotUsed() {
        String text = String.join("\n", RealSamplesTest.real("dump_fts/ibsim-2s4l-ftree.txt").lines());
        // dump_fts's stderr line for a failed LFT block, appended by the collect script; then the file cut mid-table
        String failed = "SubnGet(LFT) failed on switch 'leaf04' DR path slid 0; dlid 0; 0,1,33,7 Node GUID 0x200005 SMA LID 15; MAD status 0x0 AM 0x0";
        String cut = text.substring(0, text.indexOf("0x0010 035", text.indexOf("(leaf01):")));
        Issues issues = Issues.collecting();
        ForwardingTables t = IbrouteParser.fabric(new Text("dump_fts", cut + "\n" + failed + "\n"), issues);
        assertThat(t.switches()).extracting(Lft::switchName).containsExactly("leaf03", "leaf02", "spine02", "spine01");
        assertThat(issues.list()).extracting(e -> e.reason()).anySatisfy(r -> assertThat(r).contains("'leaf04'").contains("not used"))
                .anySatisfy(r -> assertThat(r).contains("'leaf01' ends without its 'lids dumped' line"));
    }

    @Test
    void numbersTooLargeForTheirFieldsAreIssuesNotExceptions() {
        String text = String.join("\n",
                "Unicast lids [0x0-0x3] of switch Lid 99999999999 guid 0x0000000000200000 (spine01):",
                "0x0001 001 : (Channel Adapter portguid 0x000000000000000000100001: 'node01 HCA-1')",
                "1 valid lids dumped ",
                "Unicast lids [0x0-0x3] of switch Lid 5 guid 0x00000000000002000011 (leaf09):",
                "0x0001 001 : (Channel Adapter portguid 0x0000000000100001: 'node01 HCA-1')",
                "0x0002 002 : (Channel Adapter portguid 0x0000000000100003: 'node02 HCA-1')",
                "2 valid lids dumped ",
                "0xfffff 001 : (Switch portguid 0x1: 'x')",
                "SubnGet(LFT) failed on switch 'x' DR path slid 0; dlid 0; 0,1 Node GUID 0x123456789abcdef012 SMA LID 1; MAD status 0x0 AM 0x0");
        Issues issues = Issues.collecting();
        ForwardingTables t = IbrouteParser.fabric(new Text("dump_fts", text), issues);
        // the first table is read (its heading's LID is no LID, its entry names no node); the second heading is unreadable
        assertThat(t.switches()).singleElement().satisfies(l -> {
            assertThat(l.switchName()).isEqualTo("spine01");
            assertThat(l.switchLid()).isZero();
            assertThat(l.port(1)).isEqualTo(1);
        });
        assertThat(t.destinations()).doesNotContainKey(1);
        // the unreadable heading is one issue; the entries under it are skipped with it
        assertThat(issues.list()).extracting(e -> e.where().line()).contains(4).doesNotContain(5, 6, 8);
    }

    @Test
    void aTableWithoutHeadingIsAnError() {
        String entries = "0x0001 001 : (x)\n1 valid lids dumped\n";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> IbrouteParser.fabric(new Text("dump_fts", entries), Issues.collecting()))
                .hasMessageContaining("no 'Unicast lids ... of switch' heading");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> IbrouteParser.fabric(new Text("dump_fts", entries), Issues.strict()))
                .hasMessageContaining("entry before any 'Unicast lids ... of switch' heading");
    }

    /** dump_fts of a real fabric with one table given a second time, in full. */
    private static String withSecondCopy(java.util.function.UnaryOperator<String> changeCopy) {
        String text = String.join("\n", RealSamplesTest.real("dump_fts/ibsim-2s4l-ftree.txt").lines()) + "\n";
        int from = text.indexOf("Unicast lids");
        int to = text.indexOf("Unicast lids", from + 1);
        return changeCopy.apply(text.substring(from, to)) + text;
    }

    @Test
    void aTableGivenTwiceWithOtherRoutesIsNotUsedEitherWay() {
        Issues issues = Issues.collecting();
        // the broken copy first (its first entry sent out of another port), then the good one: neither is believed
        ForwardingTables t = IbrouteParser.fabric(new Text("dump_fts", withSecondCopy(s -> s.replaceFirst("(\\n0x[0-9a-f]{4}) 0(\\d\\d) :", "$1 099 :"))), issues);
        assertThat(t.switches()).hasSize(5);
        assertThat(issues.list()).anySatisfy(e -> assertThat(e.reason()).contains("is given again").contains("neither copy is used"));
    }

    @Test
    void aTableGivenTwiceAlikeIsUsedOnceAndSaidSo() {
        Issues issues = Issues.collecting();
        ForwardingTables t = IbrouteParser.fabric(new Text("dump_fts", withSecondCopy(s -> s)), issues);
        assertThat(t.switches()).hasSize(6);
        assertThat(issues.list()).singleElement().satisfies(e -> assertThat(e.reason()).contains("given again").contains("the first is used"));
    }

    @Test
    void aLidListedTwiceWithAnotherPortMakesTheTableUnusable() {
        Issues issues = Issues.collecting();
        String text = String.join("\n", RealSamplesTest.real("ibroute/ibsim-ft9-leaf01-ftree.txt").lines()).replace("0x0009 017 :", "0x0009 017 : (x)\n0x0009 019 :");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> IbrouteParser.parse(new Text("ibroute", text), issues))
                .hasMessageContaining("'Unicast lids");
        assertThat(issues.list()).anySatisfy(e -> assertThat(e.reason()).contains("lists 1 LID again with another output port"));
    }

    @Test
    void multicastLidsInAUnicastTableAreNamedNotDropped() {
        Issues issues = Issues.collecting();
        String text = String.join("\n", RealSamplesTest.real("ibroute/ibsim-ft9-leaf01-ftree.txt").lines()).replace("0x0009 017 :", "0xc001 017 : (x)\n0x0009 017 :");
        Lft t = IbrouteParser.parse(new Text("ibroute", text), issues);
        assertThat(t.routed()).isEqualTo(14);
        assertThat(issues.list()).singleElement().satisfies(e -> assertThat(e.reason()).contains("1 entry").contains("above the unicast range"));
    }

    /** Tens of thousands of one-entry tables at the top of the LID space: held in 4 bytes an entry, not 96 KiB a table. */
    @Test
    void sparseTablesAtHighLidsAreHeldByTheEntriesTheyPrint() {
        StringBuilder sb = new StringBuilder();
        int tables = 30_000;
        for (int i = 0; i < tables; i++)
            sb.append(String.format("Unicast lids [0x0-0xbfff] of switch Lid %d guid 0x%016x (sw%d):%n  Lid  Out   Destination%n       Port     Info %n"
                    + "0x0001 001 : (Channel Adapter portguid 0x0000000000000001: 'a')%n0xbfff 001 : (Channel Adapter portguid 0x0000000000000002: 'b')%n"
                    + "2 valid lids dumped %n", i + 1, 0x100000L + i, i));
        Runtime rt = Runtime.getRuntime();
        System.gc();
        long before = rt.totalMemory() - rt.freeMemory();
        ForwardingTables t = IbrouteParser.fabric(new Text("dump_fts", sb.toString()), Issues.collecting());
        System.gc();
        long held = rt.totalMemory() - rt.freeMemory() - before;
        assertThat(t.switches()).hasSize(tables).allSatisfy(l -> assertThat(l.port(0xbfff)).isEqualTo(1));
        // dense, these tables would be 30,000 x 96 KiB = 2.8 GiB; sparse, a few MiB with their names and headings
        assertThat(held).isLessThan(200L << 20);
    }
}
