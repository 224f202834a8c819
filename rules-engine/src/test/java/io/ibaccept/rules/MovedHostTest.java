package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.fabric.CablingPlan;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.parse.Text;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host cable moved to another leaf (node04 from leaf01 port 4 to leaf02 port 5) puts leaf02 over its ratio: with a
 * cabling plan the miswired cable is the root and the ratio is listed under it, not beside it as "add an uplink".
 */
class MovedHostTest {
    @Test
    void aHostMovedToAnotherLeafIsTheRootOfThatLeafsRatio(@TempDir Path tmp) {
        // the plan: every cable of the demo as it is
        Fabric demo = Analysis.of(DumpLoader.load(TestDump.DEMO)).fabric();
        StringBuilder plan = new StringBuilder("switch,port,peer,peer_port,cable_id\n");
        int i = 0;
        for (Fabric.Link l : demo.links())
            plan.append(demo.name(l.a().guid())).append(',').append(l.a().port()).append(',').append(demo.name(l.b().guid())).append(',')
                    .append(l.b().port()).append(",C").append(++i).append('\n');
        TestDump d = TestDump.demoCopy(tmp)
                .replace("fabric/ibnetdiscover.out", "[4]\t\"H-0000000000100006\"[1](100007) \t\t# \"node04 HCA-1\" lid 10 4xHDR\n", "")
                .replace("fabric/ibnetdiscover.out", "[1](100007) \t\"S-0000000000200002\"[4]\t\t# lid 10 lmc 0 \"leaf01\" lid 4 4xHDR",
                        "[1](100007) \t\"S-0000000000200003\"[5]\t\t# lid 10 lmc 0 \"leaf02\" lid 6 4xHDR");
        String nd = d.read("fabric/ibnetdiscover.out");
        int leaf02 = nd.indexOf("# \"leaf02\" base port 0");
        int after = nd.indexOf("\n", nd.indexOf("\"node08 HCA-1\"", leaf02)) + 1;
        d.write("fabric/ibnetdiscover.out", nd.substring(0, after) + "[5]\t\"H-0000000000100006\"[1](100007) \t\t# \"node04 HCA-1\" lid 10 4xHDR\n" + nd.substring(after));
        d.replace("fabric/iblinkinfo.out", "           4    4[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>      10    1[  ] \"node04 HCA-1\" (Could be 12X )",
                        "           4    4[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )")
                .replace("fabric/iblinkinfo.out", "           6    5[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )",
                        "           6    5[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>      10    1[  ] \"node04 HCA-1\" (Could be 12X )");
        String ll = d.read("fabric/iblinkinfo.out");
        int ca = ll.indexOf("CA: node04 HCA-1:\n");
        int end = ll.indexOf('\n', ca + 18);
        String line = ll.substring(ca + 18, end);
        assertThat(line).contains("\"leaf01\"");
        d.write("fabric/iblinkinfo.out", ll.substring(0, ca + 18) + line.replaceFirst("4    4\\[  \\] \"leaf01\"", "6    5[  ] \"leaf02\"") + ll.substring(end));
        assertThat(d.read("fabric/iblinkinfo.out")).contains("6    5[  ] \"leaf02\"");

        Analysis a = Analysis.of(DumpLoader.load(d.dir), Analysis.Options.defaults().withPlan(CablingPlan.parse(new Text("plan.csv", plan.toString()))));
        Report r = a.report();
        List<Finding> wrong = FabricChecksTest.of(r, "fabric.plan").stream().filter(x -> x.status() == Status.FAIL).toList();
        assertThat(wrong).singleElement().satisfies(x -> assertThat(x.summary()).contains("node04").contains("leaf02 port 5"));
        assertThat(FabricChecksTest.of(r, "fabric.blocking")).filteredOn(x -> x.status() == Status.FAIL).singleElement().satisfies(x -> {
            assertThat(x.summary()).startsWith("leaf02: 5 downlinks");
            assertThat(x.parent()).isEqualTo(wrong.get(0).id());
        });
    }
}
