package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static io.ibaccept.rules.TestDump.problems;
import static io.ibaccept.rules.TestDump.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cable checks (cable.rating, cable.parts, cable.serial) on real captures (mlxlink module info, ibdiagnet db_csv). */
class CableInventoryRulesTest {
    static final Path REAL = Path.of("..", "parsers", "src", "test", "resources", "real");
    /** ConnectX-7 NDR, FS OSFPFL-400G-PC01 DAC, 'Supported Cable Speed : 0x000000f1 (NDR,HDR,EDR,FDR,SDR)'. */
    static final String MLXLINK = "mlxlink/csegpu1-cx7-ndr-osfp-dac-show-module.txt";
    static final String DB_CSV = "ibdiagnet2.db_csv/gary-minghuili-ndr-quantum2-full.txt";

    @TempDir
    Path tmp;

    TestDump withModules() throws Exception {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 8);
        String m = Files.readString(REAL.resolve(MLXLINK));
        for (int i = 1; i <= 8; i++) d.write(String.format("nodes/cn%04d/mlxlink.out", i), m);
        return d;
    }

    @Test
    void realModuleInfoRatedForItsSpeedWithOnePartAndSerials() throws Exception {
        Report r = withModules().analyze();
        assertThat(of(r, "cable.rating")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).isEqualTo("8 cable(s) rated for the speed their link runs at");
        });
        assertThat(of(r, "cable.parts")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).isEqualTo("one cable part number per link class: host links: OSFPFL-400G-PC01 (8)");
        });
        assertThat(status(r, "cable.serial")).isEqualTo(Status.PASS);
    }

    @Test
    void cableNotRatedForTheLinkSpeed() throws Exception {
        // the same module data with an HDR-generation rating: the link still trained at NDR
        TestDump d = withModules().replace("nodes/cn0003/mlxlink.out", "Supported Cable Speed              : 0x000000f1 (NDR,HDR,EDR,FDR,SDR)",
                "Supported Cable Speed              : 0x000000f0 (HDR,EDR,FDR,SDR)");
        assertThat(problems(d.analyze(), "cable.rating")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("cn0003");
            assertThat(f.summary()).isEqualTo("cn0003 mlx5_0 cable (OSFPFL-400G-PC01) runs NDR but the cable is rated for SDR,FDR,EDR,HDR");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/cn0003/mlxlink.out:15");
            assertThat(f.fix()).contains("rated for NDR");
        });
    }

    @Test
    void mixedPartNumbersOnHostLinksNameTheOddOnes() throws Exception {
        TestDump d = withModules().replace("nodes/cn0004/mlxlink.out", "OSFPFL-400G-PC01", "MCP4Y10-N001")
                .replace("nodes/cn0007/mlxlink.out", "OSFPFL-400G-PC01", "MCP4Y10-N001");
        assertThat(problems(d.analyze(), "cable.parts")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("cn0004", "cn0007");
            assertThat(f.summary()).isEqualTo("host links use 2 cable part numbers: OSFPFL-400G-PC01 (6), MCP4Y10-N001 (2)");
            assertThat(f.cause()).contains("cables other than OSFPFL-400G-PC01");
        });
    }

    @Test
    void missingSerialWhereMlxlinkPrintsTheField() throws Exception {
        TestDump d = withModules().replace("nodes/cn0005/mlxlink.out", "C2604279049-2", "N/A");
        assertThat(problems(d.analyze(), "cable.serial")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("cn0005");
            assertThat(f.summary()).isEqualTo("1 of 8 cable module(s) without a serial number: cn0005 mlx5_0 cable");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/cn0005/mlxlink.out:43");
        });
        // a capture whose mlxlink printed no module info at all (no serial field) is not judged
        TestDump none = TestDump.healthy(tmp.resolve("n"), 8).write("nodes/cn0001/mlxlink.out",
                Files.readString(REAL.resolve("mlxlink/brev-a100-cx6-hdr100-2x-basic.txt")));
        Report r = none.analyze();
        for (String c : List.of("cable.rating", "cable.parts", "cable.serial")) assertThat(status(r, c)).as(c).isEqualTo(Status.SKIP);
    }

    @Test
    void realIbdiagnetCaptureWithoutCableInfoInventsNothing() throws Exception {
        // ibdiagnet ran without --get_cable_info: no CABLE_INFO section, so no part number, serial or rating is judged
        TestDump d = TestDump.healthy(tmp.resolve("i"), 8).write("fabric/ibdiagnet2.db_csv.out", Files.readString(REAL.resolve(DB_CSV)));
        Report r = d.analyze();
        assertThat(of(r, "cable.parts")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.SKIP);
            assertThat(f.summary()).contains("no cable part numbers in the dump");
        });
        assertThat(status(r, "cable.serial")).isEqualTo(Status.SKIP);
        assertThat(status(r, "cable.rating")).isEqualTo(Status.SKIP);
    }

    @Test
    void ibdiagnetCableInfoIslsAreTheirOwnLinkClass() {
        // CABLE_INFO with the columns ibdiagnet prints for --get_cable_info (NodeGuid, PortGuid, PortNum, Vendor, PN, SN):
        // leaf04's four uplinks, one of them a different part and one without a serial
        TestDump d = TestDump.demoCopy(tmp.resolve("demo"));
        d.write("fabric/ibdiagnet2.db_csv.out", d.read("fabric/ibdiagnet2.db_csv.out") + "\n\nSTART_CABLE_INFO\n"
                + "NodeGuid,PortGuid,PortNum,Vendor,PN,SN\n"
                + "0x0000000000200005,0x0000000000200005,17,Mellanox,MCP1650-H002E26,MT2031VS01234\n"
                + "0x0000000000200005,0x0000000000200005,18,Mellanox,MCP1650-H002E26,\n"
                + "0x0000000000200005,0x0000000000200005,19,Mellanox,MCP1650-H002E26,MT2031VS01236\n"
                + "0x0000000000200005,0x0000000000200005,20,Mellanox,MFS1S00-H003E,MT2040FT00007\n"
                + "END_CABLE_INFO\n");
        Report r = d.analyze();
        assertThat(problems(r, "cable.parts")).filteredOn(f -> f.summary().startsWith("switch-to-switch links")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("leaf04 port 20 cable");
            assertThat(f.summary()).isEqualTo("switch-to-switch links use 2 cable part numbers: MCP1650-H002E26 (3), MFS1S00-H003E (1)");
            assertThat(f.evidence().get(1).where()).startsWith("fabric/ibdiagnet2.db_csv.out:");
        });
        assertThat(problems(r, "cable.serial")).singleElement().satisfies(f -> {
            assertThat(f.objects()).contains("leaf04 port 18 cable");
            assertThat(f.summary()).contains("leaf04 port 18 cable");
        });
    }

    @Test
    void cableRatedBelowWhatTheHcaSupportsLimitsTheLink() throws Exception {
        // an HDR host (synthetic portinfo: up to 53.125 Gbps) on a cable rated up to EDR that trained at EDR
        TestDump d = withModules().replace("nodes/cn0006/mlxlink.out", "(NDR,HDR,EDR,FDR,SDR)", "(EDR,FDR,SDR)")
                .replace("nodes/cn0006/mlxlink.out", "IB-NDR", "IB-EDR");
        d.write("nodes/cn0006/smpquery-portinfo.out", d.read("nodes/cn0006/smpquery-portinfo.out")
                + "LinkSpeedExtSupported:...........14.0625 Gbps or 25.78125 Gbps or 53.125 Gbps\n");
        assertThat(problems(d.analyze(), "cable.rating")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("cn0006");
            assertThat(f.summary()).isEqualTo("cn0006 mlx5_0 cable (OSFPFL-400G-PC01) is rated up to EDR while the HCA supports HDR:"
                    + " the link runs EDR because of the cable");
            assertThat(f.fix()).contains("rated for HDR");
        });
    }
}
