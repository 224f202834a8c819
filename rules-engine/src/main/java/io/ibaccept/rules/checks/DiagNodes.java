package io.ibaccept.rules.checks;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.rules.Ctx;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What ibdiagnet2.db_csv itself says about the nodes its rows name (NODES: description, type, device id; LINKS: the
 * peer of each port), for rows keyed by NodeGUID. The fabric graph is asked first; db_csv fills in where the dump has
 * no ibnetdiscover of the same fabric (a ticket with only ibdiagnet's files).
 */
final class DiagNodes {
    private final Map<String, String> desc = new HashMap<>(), type = new HashMap<>(), device = new HashMap<>(), peer = new HashMap<>();

    private DiagNodes() {}

    static DiagNodes of(Ibdiagnet.Db db) {
        DiagNodes n = new DiagNodes();
        Ibdiagnet.Section nodes = db == null ? null : db.section("NODES");
        if (nodes != null)
            for (Ibdiagnet.Row r : nodes.rows()) {
                String g = norm(r.get("NodeGUID"));
                n.desc.put(g, r.get("NodeDesc"));
                n.type.put(g, r.get("NodeType"));
                n.device.put(g, r.get("DeviceID"));
            }
        Ibdiagnet.Section links = db == null ? null : db.section("LINKS");
        if (links != null)
            for (Ibdiagnet.Row r : links.rows()) {
                String a = norm(r.get("NodeGuid1")), b = norm(r.get("NodeGuid2"));
                n.peer.put(a + ":" + r.get("PortNum1").trim(), b);
                n.peer.put(b + ":" + r.get("PortNum2").trim(), a);
            }
        return n;
    }

    /** The device id NODES gives the node, "" where unknown. */
    String device(String guid) {
        return device.getOrDefault(norm(guid), "");
    }

    /** The fabric's name of the node, else its NODES description, else the GUID as written. */
    String name(Ctx c, String guid) {
        Long g = parse(guid);
        if (g != null && c.fabric().node(g) != null) return c.fabric().name(g);
        String d = desc.getOrDefault(norm(guid), "");
        return d.isBlank() ? guid : d;
    }

    /** "switch-to-switch", "host link", or "unlinked" (a port without a link in the graph or in LINKS); "" if unreadable. */
    String portClass(Ctx c, String guid, String port) {
        Long g = parse(guid);
        int p;
        try {
            p = Integer.parseInt(port.trim());
        } catch (NumberFormatException e) {
            return "";
        }
        if (g == null) return "";
        var link = c.fabric().linkAt(new Fabric.End(g, p));
        if (link.isPresent()) return switch (c.fabric().linkClass(link.get())) {
            case SWITCH_TO_SWITCH, CHASSIS_INTERNAL -> "switch-to-switch";
            case HOST -> "host link";
            // a SHARP aggregation node's port is configured apart from the host ports of its switch
            default -> c.fabric().linkClass(link.get()).name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        };
        String other = peer.get(norm(guid) + ":" + p);
        if (other == null) return "unlinked";
        return "2".equals(type.get(norm(guid))) && "2".equals(type.get(other)) ? "switch-to-switch" : "host link";
    }

    private static Long parse(String guid) {
        try {
            return Long.parseUnsignedLong(norm(guid), 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static String norm(String guid) {
        return guid.trim().toLowerCase(Locale.ROOT).replaceFirst("^0x", "");
    }
}
