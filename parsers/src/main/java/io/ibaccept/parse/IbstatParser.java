package io.ibaccept.parse;

import io.ibaccept.model.Ibstat;
import java.util.ArrayList;
import java.util.List;

/** Parses {@code ibstat} output (one or more "CA 'name'" blocks). */
public final class IbstatParser {
    private IbstatParser() {}

    public static List<Ibstat.Ca> parse(Text t) {
        List<String> lines = t.lines();
        List<Ibstat.Ca> cas = new ArrayList<>();
        CaBuilder ca = null;
        PortBuilder port = null;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String raw = lines.get(i);
            String line = raw.trim();
            if (line.isEmpty()) continue;
            if (line.startsWith("CA '") && line.endsWith("'")) {
                if (ca != null) cas.add(ca.build(t, port));
                ca = new CaBuilder(line.substring(4, line.length() - 1), t.at(ln));
                port = null;
                continue;
            }
            if (ca == null) throw t.error(ln, "expected \"CA '<name>'\" header, found '" + line + "'");
            if (line.matches("Port \\d+:")) {
                if (port != null) ca.ports.add(port.build());
                port = new PortBuilder(Nums.integer(t, ln, line.substring(5, line.length() - 1)), t.at(ln));
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) throw t.error(ln, "expected 'Key: value', found '" + line + "'");
            String key = line.substring(0, colon).trim();
            String val = line.substring(colon + 1).trim();
            if (port != null) {
                switch (key) {
                    case "State" -> port.state = val;
                    case "Physical state" -> port.phys = val;
                    case "Rate" -> port.rate = Nums.integer(t, ln, val);
                    case "Base lid" -> port.lid = Nums.integer(t, ln, val);
                    case "LMC" -> port.lmc = Nums.integer(t, ln, val);
                    case "SM lid" -> port.smLid = Nums.integer(t, ln, val);
                    case "Capability mask" -> port.capMask = Nums.hex(t, ln, val);
                    case "Port GUID" -> port.guid = Nums.hex(t, ln, val);
                    case "Link layer" -> port.linkLayer = val;
                    default -> { /* newer ibstat versions add fields; ignore */ }
                }
            } else {
                switch (key) {
                    case "CA type" -> ca.type = val;
                    case "Number of ports" -> ca.numPorts = Nums.integer(t, ln, val);
                    case "Firmware version" -> ca.fw = val;
                    case "Hardware version" -> ca.hw = val;
                    case "Node GUID" -> ca.nodeGuid = Nums.hex(t, ln, val);
                    case "System image GUID" -> ca.sysGuid = Nums.hex(t, ln, val);
                    default -> { }
                }
            }
        }
        if (ca != null) cas.add(ca.build(t, port));
        if (cas.isEmpty()) throw t.error(0, "no CA found (empty ibstat output)");
        return cas;
    }

    private static final class CaBuilder {
        final String name;
        final SourceRef ref;
        String type = "", fw = "", hw = "";
        int numPorts = -1;
        long nodeGuid, sysGuid;
        final List<Ibstat.Port> ports = new ArrayList<>();

        CaBuilder(String name, SourceRef ref) {
            this.name = name;
            this.ref = ref;
        }

        Ibstat.Ca build(Text t, PortBuilder last) {
            if (last != null) ports.add(last.build());
            if (numPorts >= 0 && ports.size() < numPorts)
                throw t.error(ref.line(), "CA '" + name + "' announces " + numPorts + " port(s) but lists "
                        + ports.size() + " (truncated output?)");
            return new Ibstat.Ca(name, type, numPorts, fw, hw, nodeGuid, sysGuid, ports, ref);
        }
    }

    private static final class PortBuilder {
        final int num;
        final SourceRef ref;
        String state = "", phys = "", linkLayer = "";
        int rate = -1, lid, lmc, smLid;
        long capMask, guid;

        PortBuilder(int num, SourceRef ref) {
            this.num = num;
            this.ref = ref;
        }

        Ibstat.Port build() {
            return new Ibstat.Port(num, state, phys, rate, lid, lmc, smLid, capMask, guid, linkLayer, ref);
        }
    }
}
