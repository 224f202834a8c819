package io.ibaccept.rules.inventory;

import io.ibaccept.dump.Cmd;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.model.CableModule;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.Mlxlink;
import io.ibaccept.model.ClusterData;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The cable modules the dump describes, one record per module end: mlxlink's Module Info on each host (a host link),
 * ibdiagnet2.cables (--get_cable_info: the module in every cabled port, switch and HCA ends) and ibdiagnet's
 * CABLE_INFO section of db_csv for the ends ibdiagnet2.cables does not hold, classed host link or ISL through the fabric
 * graph. Only what the tools print: vendor, part number, serial (with whether the source has a serial field at all),
 * the cable's own rated IB speeds (mlxlink "Supported Cable Speed") and the link's active speed.
 */
public final class Cables {
    private Cables() {}

    public enum LinkClass {
        HOST("host links"), ISL("switch-to-switch links"), UNKNOWN("links of unknown class");

        public final String label;

        LinkClass(String label) {
            this.label = label;
        }
    }

    /**
     * host: the host the module was read from, null for a CABLE_INFO row of a switch. device: the host's CA (mlxlink).
     * end: the port the module sits in (CABLE_INFO; null for mlxlink, which reads the host's first CA). type: type and
     * length as mlxlink prints them; firmware and revision: the module's, as CABLE_INFO prints them. where: file:line.
     */
    public record Cable(String object, String host, String device, Fabric.End end, LinkClass linkClass, String vendor, String partNumber,
                 String serial, boolean serialPrinted, String type, String firmware, String revision, Set<LinkSpeed> rated,
                 LinkSpeed active, String where, String ratedWhere, String serialWhere, String source) {
        public boolean hasPartNumber() {
            return known(partNumber);
        }

        public boolean hasSerial() {
            return known(serial);
        }
    }

    /** fabric: the fabric graph, to class CABLE_INFO rows as host links or ISLs (null: all UNKNOWN). */
    public static List<Cable> of(ClusterData data, Fabric fabric) {
        List<Cable> out = new ArrayList<>();
        for (HostData h : data.hosts().values()) {
            Mlxlink m = h.mlxlink();
            if (m == null || (m.cableVendor() == null && m.cablePartNumber() == null && m.cableSerial() == null)) continue;
            String device = h.infinibandCas().isEmpty() ? "" : h.infinibandCas().get(0).name();
            var ref = m.ref("Vendor Part Number") != null ? m.ref("Vendor Part Number") : m.ref("Vendor Name");
            LinkSpeed active = m.speed() != null ? m.speed() : h.activeSpeed().orElse(null);
            out.add(new Cable(h.host() + (device.isEmpty() ? "" : " " + device) + " cable", h.host(), device, null, LinkClass.HOST,
                    m.cableVendor(), m.cablePartNumber(), m.cableSerial(), m.field("Vendor Serial Number") != null, typeAndLength(m), "", "",
                    m.cableSpeeds(), active,
                    ref == null ? Cmd.MLXLINK.path(h.host()) : ref.toString(),
                    m.cableSpeedsRef() == null ? Cmd.MLXLINK.path(h.host()) : m.cableSpeedsRef().toString(),
                    m.ref("Vendor Serial Number") == null ? Cmd.MLXLINK.path(h.host()) : m.ref("Vendor Serial Number").toString(), "mlxlink"));
        }
        Set<Fabric.End> read = new java.util.HashSet<>();
        List<CableModule> modules = data.fabric() == null || data.fabric().diagCables() == null ? List.of() : data.fabric().diagCables();
        for (CableModule m : modules) {
            Fabric.End end = new Fabric.End(m.guid(), m.port());
            if (!read.add(end)) continue;
            var link = fabric == null ? java.util.Optional.<Fabric.Link>empty() : fabric.linkAt(end);
            String type = m.type().equalsIgnoreCase("N/A") ? "" : m.type();
            if (!m.length().isEmpty()) type = type.isEmpty() ? m.length() : type + ", " + m.length();
            out.add(new Cable(object(fabric, end), hostOf(fabric, m.guid()), "", end, linkClass(fabric, link), m.vendor(), m.partNumber(), m.serial(),
                    m.fields().containsKey("SN"), type, m.firmware(), m.field("Rev"), Set.of(), link.map(Fabric.Link::speed).orElse(null),
                    m.ref("PN").toString(), null, m.ref("SN").toString(), "ibdiagnet2.cables"));
        }
        Ibdiagnet.Db db = data.fabric() == null ? null : data.fabric().diagDb();
        Ibdiagnet.Section s = db == null ? null : db.section("CABLE_INFO");
        if (s != null) {
            boolean snColumn = s.header().contains("SN");
            for (Ibdiagnet.Row r : s.rows()) {
                Long guid = hex(r.get("NodeGuid").isEmpty() ? r.get("NodeGUID") : r.get("NodeGuid"));
                Integer port = integer(r.get("PortNum").isEmpty() ? r.get("PortNumber") : r.get("PortNum"));
                if (guid == null || port == null) continue;
                Fabric.End end = new Fabric.End(guid, port);
                if (read.contains(end)) continue;
                var link = fabric == null ? java.util.Optional.<Fabric.Link>empty() : fabric.linkAt(end);
                LinkClass lc = linkClass(fabric, link);
                String host = hostOf(fabric, guid);
                out.add(new Cable(object(fabric, end), host, "", end, lc,
                        r.get("Vendor"), r.get("PN"), r.get("SN"), snColumn, "", r.get("FWVersion"), r.get("Rev"), Set.of(),
                        link.map(Fabric.Link::speed).orElse(null), r.ref() == null ? Cmd.IBDIAGNET_DB.path(null) : r.ref().toString(), null,
                        r.ref() == null ? Cmd.IBDIAGNET_DB.path(null) : r.ref().toString(),
                        "ibdiagnet CABLE_INFO"));
            }
        }
        return out;
    }

    private static String object(Fabric fabric, Fabric.End end) {
        return (fabric == null ? String.format("0x%016x port %d", end.guid(), end.port()) : fabric.name(end)) + " cable";
    }

    private static String hostOf(Fabric fabric, long guid) {
        Fabric.Node n = fabric == null ? null : fabric.node(guid);
        return n != null && n.isHost() ? n.name() : null;
    }

    private static LinkClass linkClass(Fabric fabric, java.util.Optional<Fabric.Link> link) {
        return link.isEmpty() ? LinkClass.UNKNOWN : fabric.isSwitchToSwitch(link.get()) ? LinkClass.ISL
                : fabric.isHostLink(link.get()) ? LinkClass.HOST : LinkClass.UNKNOWN;
    }

    /**
     * The module's type and length as mlxlink prints them ("Cable Type : Passive copper cable", "Transfer Distance [m] : 1";
     * older mlxlink: "Cable Technology", "Cable Length"), e.g. "Passive copper cable, 1 m"; "" when not printed.
     */
    public static String typeAndLength(Mlxlink m) {
        String type = m.field("Cable Type");
        if (type == null || type.equals("N/A")) type = m.field("Cable Technology");
        String len = m.field("Transfer Distance [m]");
        if (len == null) len = m.field("Cable Length");
        StringBuilder sb = new StringBuilder(type == null || type.equals("N/A") ? "" : type);
        if (len != null && !len.isEmpty() && !len.equals("N/A") && !len.equals("0")) {
            if (sb.length() > 0) sb.append(", ");
            sb.append(len.endsWith("m") ? len : len + " m");
        }
        return sb.toString();
    }

    /** Tools print N/A, NA or blanks for values a module does not report. */
    public static boolean known(String v) {
        if (v == null) return false;
        String t = v.trim().toUpperCase(Locale.ROOT);
        return !t.isEmpty() && !t.equals("N/A") && !t.equals("NA") && !t.equals("0") && !t.equals("UNKNOWN");
    }

    private static Long hex(String v) {
        String d = v.trim().startsWith("0x") || v.trim().startsWith("0X") ? v.trim().substring(2) : v.trim();
        if (d.isEmpty() || d.length() > 16 || !d.chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) return null;
        return Long.parseUnsignedLong(d, 16);
    }

    private static Integer integer(String v) {
        String t = v.trim();
        if (t.isEmpty() || t.length() > 4 || !t.chars().allMatch(Character::isDigit)) return null;
        return Integer.parseInt(t);
    }
}
