package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.fabric.Fabric;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A degraded link between two ASICs of one chassis (they print one system image GUID) is a backplane fault: the finding
 * says so and its fix is the module and the chassis diagnostics, never "reseat the cable".
 */
class ChassisBackplaneTest {
    @Test
    void degradedBackplaneLinkGetsTheModuleFixNotACableFix(@TempDir Path tmp) {
        // spine01 and leaf01 of the demo made one chassis; their link spine01 port 1 <-> leaf01 port 17 trained at 1X
        TestDump d = TestDump.demoCopy(tmp)
                .replace("fabric/ibnetdiscover.out", "sysimgguid=0x200002\nswitchguid=0x200002(200002)", "sysimgguid=0x200000\nswitchguid=0x200002(200002)")
                .replace("fabric/iblinkinfo.out", "           2    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       4   17[  ] \"leaf01\"",
                        "           2    1[  ] ==( 1X        53.125 Gbps Active/  LinkUp)==>       4   17[  ] \"leaf01\"")
                .replace("fabric/iblinkinfo.out", "           4   17[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       2    1[  ] \"spine01\"",
                        "           4   17[  ] ==( 1X        53.125 Gbps Active/  LinkUp)==>       2    1[  ] \"spine01\"");
        Analysis a = Analysis.of(DumpLoader.load(d.dir));
        Fabric f = a.fabric();
        assertThat(f.node(0x200000L).inChassis()).isTrue();
        assertThat(f.node(0x200002L).system()).isEqualTo(0x200000L);
        // the demo's node06 at 1X stays a cable fault; the backplane link is the other one
        List<Finding> width = FabricChecksTest.of(a.report(), "link.width").stream().filter(x -> x.status() == Status.FAIL && x.summary().startsWith("spine01")).toList();
        assertThat(width).hasSize(1);
        assertThat(FabricChecksTest.of(a.report(), "link.width")).filteredOn(x -> x.summary().startsWith("node06")).singleElement()
                .satisfies(x -> assertThat(x.fix()).startsWith("Reseat, clean or replace the cable"));
        Finding w = width.get(0);
        assertThat(w.summary()).contains("(chassis backplane)").contains("runs at 1X");
        assertThat(w.cause()).contains("internal link between two ASICs of one chassis");
        assertThat(w.fix()).startsWith("No cable to reseat").contains("RMA").doesNotContain("Reseat, clean or replace the cable");
    }
}
