package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.inventory.Cables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Every cable module the tools read has a serial number, where the source prints a serial field (mlxlink "Vendor Serial
 * Number", ibdiagnet CABLE_INFO column SN): a blank or N/A serial is a module without a readable EEPROM identity
 * (unqualified or counterfeit module, or EEPROM not read), which the asset register and an RMA need.
 */
final class CableSerial implements Check {
    public String id() {
        return "cable.serial";
    }

    /** A cable finding names the host whose cable it is. */
    public Naming naming() {
        return Naming.HOST_CABLES;
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.MLXLINK, Cmd.IBDIAGNET_DB));
    }

    public void evaluate(Ctx c) {
        int judged = 0;
        List<Cables.Cable> missing = new ArrayList<>();
        for (Cables.Cable cb : Cables.of(c.data, c.fabric())) {
            if (!cb.serialPrinted()) continue;
            judged++;
            if (!cb.hasSerial()) missing.add(cb);
        }
        if (judged == 0) {
            c.skip("no source printed cable serial numbers (mlxlink module info: --mlxlink; ibdiagnet CABLE_INFO: --ibdiagnet with --get_cable_info)");
            return;
        }
        if (missing.isEmpty()) {
            c.pass(judged + " cable module(s) with a serial number", List.of(), List.of());
            return;
        }
        String names = missing.stream().limit(10).map(Cables.Cable::object).collect(Collectors.joining(", ")) + (missing.size() > 10 ? ", ..." : "");
        c.problem(Status.WARN, missing.stream().map(cb -> cb.host() != null ? cb.host() : cb.object()).distinct().toList(),
                missing.stream().limit(10).map(cb -> Evidence.of(cb.object() + ": serial '" + (cb.serial() == null ? "" : cb.serial().trim())
                        + "' (" + cb.source() + ", part " + (cb.hasPartNumber() ? cb.partNumber().trim() : "unknown") + ")", cb.serialWhere())).toList(),
                missing.size() + " of " + judged + " cable module(s) without a serial number: " + names, "", Map.of("cables", names));
    }
}
