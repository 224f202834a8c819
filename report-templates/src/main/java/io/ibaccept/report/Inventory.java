package io.ibaccept.report;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.Mlxlink;
import io.ibaccept.model.NodeInfo;
import io.ibaccept.model.Topology;
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

    static final String[] HEADER = {"kind", "host", "device", "description", "type", "firmware", "hw_rev", "guid",
            "device_id", "vendor_id", "vendor", "part_number", "serial", "ports", "source"};

    record Item(String kind, String host, String device, String description, String type, String firmware, String hwRev,
                String guid, String deviceId, String vendorId, String vendor, String partNumber, String serial,
                Integer ports, String source) {}

    static List<Item> items(ClusterData data, FabricView fabric) {
        List<Item> out = new ArrayList<>();
        Map<Long, Topology.Node> topo = new HashMap<>();
        if (fabric.known()) fabric.topology.nodes().forEach(n -> topo.put(n.guid(), n));
        for (HostData h : data.hosts().values()) {
            NodeInfo ni = h.nodeInfo();
            if (h.ibstat() != null) {
                for (Ibstat.Ca ca : h.ibstat()) {
                    boolean niHere = ni != null && (ni.guid() == ca.nodeGuid() || h.ibstat().size() == 1);
                    out.add(new Item("hca", h.host(), ca.name(), "", ca.caType(), ca.firmware(), ca.hardware(), guid(ca.nodeGuid()),
                            niHere ? ni.deviceId() : "", niHere ? ni.vendorId() : "", "", "", "", ca.numPorts(),
                            ca.ref() == null ? "" : ca.ref().toString()));
                }
            }
            Mlxlink m = h.mlxlink();
            if (m != null && (m.cableVendor() != null || m.cablePartNumber() != null)) {
                String ends = h.host();
                if (h.ibstat() != null && !h.ibstat().isEmpty()) {
                    Topology.Node ca = topo.get(h.ibstat().get(0).nodeGuid());
                    if (ca != null && !ca.ports().isEmpty()) {
                        Topology.Port p = ca.ports().get(0);
                        String remote = fabric.switchNames.getOrDefault(p.remoteGuid(), p.remoteDescription());
                        ends = ca.description() + " port " + p.port() + " <-> " + remote + " port " + p.remotePort();
                    }
                }
                var ref = m.ref("Vendor Part Number") != null ? m.ref("Vendor Part Number") : m.ref("Vendor Name");
                out.add(new Item("cable", h.host(), h.ibstat() != null && !h.ibstat().isEmpty() ? h.ibstat().get(0).name() : "",
                        ends, "", "", "", "", "", "", nz(m.cableVendor()), nz(m.cablePartNumber()), "", null,
                        ref == null ? "" : ref.toString()));
            }
        }
        if (fabric.known()) {
            for (Topology.Node n : fabric.topology.nodes()) {
                if (n.type() != Topology.NodeType.SWITCH) continue;
                out.add(new Item("switch", "", fabric.switchNames.get(n.guid()), n.description(), "", "", "", guid(n.guid()),
                        "", "", "", "", "", n.numPorts(), n.ref() == null ? "" : n.ref().toString()));
            }
        }
        return out;
    }

    static void renderCsv(ClusterData data, FabricView fabric, Writer out) {
        try (SafeCsv csv = new SafeCsv(out, HEADER)) {
            for (Item i : items(data, fabric))
                csv.row(i.kind(), i.host(), i.device(), i.description(), i.type(), i.firmware(), i.hwRev(), i.guid(), i.deviceId(),
                        i.vendorId(), i.vendor(), i.partNumber(), i.serial(), i.ports(), i.source());
        }
    }

    static String guid(long g) {
        return String.format("0x%016x", g);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
