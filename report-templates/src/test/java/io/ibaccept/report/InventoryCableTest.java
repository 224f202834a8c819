package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.Mlxlink;
import io.ibaccept.parse.MlxlinkParser;
import io.ibaccept.parse.Text;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The cable row of the inventory from a real 'mlxlink --show_module' capture (ConnectX-7, NDR OSFP DAC). */
class InventoryCableTest {
    @Test
    void typeLengthAndSerialOfTheModuleAsMlxlinkPrintsThem() throws Exception {
        String name = "real/mlxlink/csegpu1-cx7-ndr-osfp-dac-show-module.txt";
        try (var in = InventoryCableTest.class.getClassLoader().getResourceAsStream(name)) {
            Mlxlink m = MlxlinkParser.parse(new Text(name, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            assertThat(io.ibaccept.rules.inventory.Cables.typeAndLength(m)).isEqualTo("Passive copper cable, 1 m");
            assertThat(m.cableSerial()).isEqualTo("C2604279049-2");
            assertThat(m.cablePartNumber()).isEqualTo("OSFPFL-400G-PC01");
        }
    }
}
