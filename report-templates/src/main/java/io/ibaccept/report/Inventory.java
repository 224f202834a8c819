package io.ibaccept.report;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.NodeInfo;
import io.ibaccept.model.Topology;
import io.ibaccept.rules.inventory.Cables;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The asset register: per host HCA (ibstat, smpquery nodeinfo), per cable (mlxlink module info, both ends from the
 * topology) and per switch (ibnetdiscover). Only values the tools print; empty where the dump does not have them.
 */
final class Inventory {
    private Inventory() {}

    static final String[] HEADER = {"kind", "host", "device", "description", "type", "firmware", "psid", "hw_rev", "guid",
            "device_id", "vendor_id", "vendor", "part_number", "serial", "ports", "source"};

    record Item(String kind, String host, String device, String description, String type, String firmware, String psid,
                String hwRev, String guid, String deviceId, String vendorId, String vendor, String partNumber, String serial,
                Integer ports, String source) {}

    /** What ibdiagnet2.db_csv knows about a node: NODES (description, type, device id) and NODES_INFO (firmware, PSID). */
    record DiagNode(String description, String type, String deviceId, String vendorId, int ports, String firmware, String psid,
                    String hwRev, String source) {}

    static Map<Long, DiagNode> diagNodes(ClusterData data) {
        Map<Long, DiagNode> out = new java.util.LinkedHashMap<>();
        Ibdiagnet.Db db = data.fabric() == null ? null : data.fabric().diagDb();
        if (db == null) return out;
        Map<Long, Ibdiagnet.Row> info = new HashMap<>();
        Ibdiagnet.Section ni = db.section("NODES_INFO");
        if (ni != null) for (Ibdiagnet.Row r : ni.rows()) {
            Long g = guidOf(r.get("NodeGUID"));
            if (g != null) info.put(g, r);
        }
        Ibdiagnet.Section nodes = db.section("NODES");
        if (nodes == null) return out;
        for (Ibdiagnet.Row r : nodes.rows()) {
            Long g = guidOf(r.get("NodeGUID"));
            if (g == null || out.containsKey(g)) continue;
            Ibdiagnet.Row i = info.get(g);
            String type = switch (r.get("NodeType")) {
                case "1" -> "CA";
                case "2" -> "switch";
                case "3" -> "router";
                default -> r.get("NodeType");
            };
            Integer ports = intOf(r.get("NumPorts"));
            out.put(g, new DiagNode(r.get("NodeDesc"), type, r.get("DeviceID"), r.get("VendorID"), ports == null ? 0 : ports,
                    i == null ? "" : firmware(i), i == null ? "" : i.get("FWInfo_PSID"), i == null ? "" : i.get("HWInfo_DeviceHWRevision"),
                    r.ref() == null ? "" : r.ref().toString()));
        }
        return out;
    }

    /** Firmware as ibdiagnet's FW check prints it: the extended version where set (ConnectX-4 and later), decimal. */
    static String firmware(Ibdiagnet.Row r) {
        Long xm = hexOrDec(r.get("FWInfo_Extended_Major")), xn = hexOrDec(r.get("FWInfo_Extended_Minor")),
                xs = hexOrDec(r.get("FWInfo_Extended_SubMinor"));
        if (xm != null && xn != null && xs != null && (xm | xn | xs) != 0) return xm + "." + xn + "." + xs;
        Long m = hexOrDec(r.get("FWInfo_Major")), n = hexOrDec(r.get("FWInfo_Minor")), s = hexOrDec(r.get("FWInfo_SubMinor"));
        return m != null && n != null && s != null && (m | n | s) != 0 ? m + "." + n + "." + s : "";
    }

    private static Long hexOrDec(String v) {
        if (v == null || v.isBlank()) return null;
        try {
            String t = v.strip();
            return t.startsWith("0x") || t.startsWith("0X") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static Long guidOf(String v) {
        if (v == null) return null;
        String t = v.strip();
        if (t.startsWith("0x") || t.startsWith("0X")) t = t.substring(2);
        if (t.isEmpty() || t.length() > 16) return null;
        try {
            return Long.parseUnsignedLong(t, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Integer intOf(String v) {
        try {
            return Integer.valueOf(v.strip());
        } catch (NumberFormatException | NullPointerException e) {
            return null;
        }
    }

    static List<Item> items(ReportFacts facts) {
        ClusterData data = facts.data();
        FabricView fabric = facts.view();
        List<Item> out = new ArrayList<>();
        Map<Long, DiagNode> diag = diagNodes(data);
        Map<Long, Topology.Node> topo = new HashMap<>();
        if (fabric.known()) fabric.topology.nodes().forEach(n -> topo.put(n.guid(), n));
        for (HostData h : data.hosts().values()) {
            NodeInfo ni = h.nodeInfo();
            if (h.ibstat() != null) {
                for (Ibstat.Ca ca : h.ibstat()) {
                    boolean niHere = ni != null && (ni.guid() == ca.nodeGuid() || h.ibstat().size() == 1);
                    DiagNode d = diag.get(ca.nodeGuid());
                    out.add(new Item("hca", h.host(), ca.name(), "", ca.caType(), ca.firmware(), d == null ? "" : d.psid(), ca.hardware(),
                            guid(ca.nodeGuid()), niHere ? ni.deviceId() : "", niHere ? ni.vendorId() : "", "", "", "", ca.numPorts(),
                            ca.ref() == null ? "" : ca.ref().toString()));
                }
            }
        }
        // switches: the ibnetdiscover topology, enriched by ibdiagnet's NODES / NODES_INFO; the ASICs of a chassis switch
        // (one system image GUID) follow a "chassis" row and name it in the host column
        java.util.Set<Long> listed = new java.util.HashSet<>();
        Map<Long, List<io.ibaccept.fabric.Fabric.Node>> chassis = facts.fabric() == null ? Map.of() : facts.fabric().chassis();
        Map<Long, String> chassisName = new HashMap<>();
        chassis.forEach((system, asics) -> {
            String name = FabricView.slurmName(asics.get(0).description(), system);
            for (io.ibaccept.fabric.Fabric.Node n : asics) chassisName.put(n.guid(), name);
            out.add(new Item("chassis", "", name, "chassis switch of " + asics.size() + " ASICs (line and spine modules joined by its backplane)", "", "", "", "",
                    guid(system), "", "", "", "", "", null, asics.get(0).ref() == null ? "" : asics.get(0).ref().toString()));
        });
        if (fabric.known()) {
            for (Topology.Node n : fabric.topology.nodes()) {
                if (n.type() != Topology.NodeType.SWITCH) continue;
                DiagNode d = diag.get(n.guid());
                listed.add(n.guid());
                out.add(new Item("switch", chassisName.getOrDefault(n.guid(), ""), fabric.switchName(n), n.description(), "", d == null ? "" : d.firmware(),
                        d == null ? "" : d.psid(), d == null ? "" : d.hwRev(), guid(n.guid()), d == null ? "" : d.deviceId(),
                        d == null ? "" : d.vendorId(), "", "", "", n.numPorts(), n.ref() == null ? "" : n.ref().toString()));
            }
        }
        // without a usable topology, ibdiagnet's node list stands in for it
        for (Map.Entry<Long, DiagNode> e : fabric.known() ? Map.<Long, DiagNode>of().entrySet() : diag.entrySet()) {
            DiagNode d = e.getValue();
            if (!d.type().equals("switch") || listed.contains(e.getKey())) continue;
            out.add(new Item("switch", "", FabricView.slurmName(d.description(), e.getKey()), d.description(), "", d.firmware(), d.psid(),
                    d.hwRev(), guid(e.getKey()), d.deviceId(), d.vendorId(), "", "", "", d.ports(), d.source()));
        }
        // cables, one row per module end, as rules.inventory.Cables reads them (mlxlink on the hosts, ibdiagnet CABLE_INFO)
        for (Cables.Cable cb : Cables.of(data, facts.fabric())) {
            if (cb.end() == null) {
                // mlxlink: the module of the host's first CA, cabled to the switch port its topology names
                if (cb.vendor() == null && cb.partNumber() == null) continue;
                HostData h = data.hosts().get(cb.host());
                String ends = cb.host();
                if (h != null && h.ibstat() != null && !h.ibstat().isEmpty()) {
                    Topology.Node ca = topo.get(h.ibstat().get(0).nodeGuid());
                    if (ca != null && !ca.ports().isEmpty()) {
                        Topology.Port p = ca.ports().get(0);
                        String remote = fabric.switchNames.getOrDefault(p.remoteGuid(), p.remoteDescription());
                        ends = ca.description() + " port " + p.port() + " <-> " + remote + " port " + p.remotePort();
                    }
                }
                out.add(new Item("cable", cb.host(), cb.device(), ends, cb.type(), "", "", "", "", "", "", nz(cb.vendor()), nz(cb.partNumber()),
                        nz(cb.serial()), null, cb.where().equals(Cmd.MLXLINK.path(cb.host())) ? "" : cb.where()));
            } else {
                long g = cb.end().guid();
                String owner = fabric.caHost.getOrDefault(g, fabric.switchNames.getOrDefault(g,
                        diag.containsKey(g) ? diag.get(g).description() : guid(g)));
                boolean line = cb.where().startsWith(Cmd.IBDIAGNET_DB.path(null) + ":") || cb.where().startsWith(Cmd.IBDIAGNET_CABLES.path(null) + ":");
                out.add(new Item("cable", fabric.caHost.containsKey(g) ? owner : "", "", owner + " port " + cb.end().port(), cb.type(), cb.firmware(),
                        "", cb.revision(), "", "", "", cb.vendor(), cb.partNumber(), cb.serial(), null, line ? cb.where() : ""));
            }
        }
        return out;
    }

    static void renderCsv(ReportFacts facts, Writer out) {
        try (SafeCsv csv = new SafeCsv(out, HEADER)) {
            for (Item i : facts.inventory())
                csv.row(i.kind(), i.host(), i.device(), i.description(), i.type(), i.firmware(), i.psid(), i.hwRev(), i.guid(), i.deviceId(),
                        i.vendorId(), i.vendor(), i.partNumber(), i.serial(), i.ports(), i.source());
        }
    }

    /**
     * Who an item belongs to in the grouped inventory of a large fabric: its host, else its device, else for a module in
     * a switch port the switch (a fabric's hundreds of switch-side modules are listed by their switches, not one by one).
     */
    static String member(Item i) {
        if (!i.host().isEmpty()) return i.host();
        if (!i.device().isEmpty() || !i.kind().equals("cable")) return i.device();
        int port = i.description().lastIndexOf(" port ");
        return port > 0 ? i.description().substring(0, port) : i.description();
    }

    /** A GUID in hex; empty when the dump does not give it (0: redacted or unknown). */
    static String guid(long g) {
        return g == 0 ? "" : String.format("0x%016x", g);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
