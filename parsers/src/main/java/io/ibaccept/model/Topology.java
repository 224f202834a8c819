package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The fabric as {@code ibnetdiscover} (or ibdiagnet's copy of it, or {@code ibnetdiscover -p}) sees it. */
public record Topology(List<Node> nodes) {
    public Topology {
        nodes = List.copyOf(nodes);
    }

    public enum NodeType { SWITCH, CA, ROUTER }

    /**
     * lid is the switch base-port-0 LID; for CAs it is 0 (port LIDs are on the ports). sysImageGuid is the system image
     * GUID ibnetdiscover prints before the record ({@code sysimgguid=}): the ASICs of one chassis switch share it; 0
     * when not printed.
     */
    public record Node(NodeType type, long guid, String id, String description, int numPorts, int lid,
                       List<Port> ports, SourceRef ref, long sysImageGuid) {
        public Node {
            ports = List.copyOf(ports);
        }

        /** A node whose system image GUID is not known (ibnetdiscover -p, ibdiagnet's LST dialect, a test). */
        public Node(NodeType type, long guid, String id, String description, int numPorts, int lid, List<Port> ports, SourceRef ref) {
            this(type, guid, id, description, numPorts, lid, ports, ref, 0);
        }
    }

    /**
     * One connected port line. portGuid/lid are known for CA ports; width/speed may be null if not printed. label is the
     * front-panel name ibdiagnet prints for switch ports ("1/1/1" on a Quantum-2: ASIC/cage/port[/split]), "" if none.
     */
    public record Port(int port, long portGuid, int lid, String remoteId, long remoteGuid, int remotePort,
                       String remoteDescription, int remoteLid, LinkWidth width, LinkSpeed speed, String label,
                       SourceRef ref) {
        /** A port without a front-panel label (plain ibnetdiscover). */
        public Port(int port, long portGuid, int lid, String remoteId, long remoteGuid, int remotePort,
                    String remoteDescription, int remoteLid, LinkWidth width, LinkSpeed speed, SourceRef ref) {
            this(port, portGuid, lid, remoteId, remoteGuid, remotePort, remoteDescription, remoteLid, width, speed, "", ref);
        }
}

    /** Nodes by GUID (the key every fabric rule should use: node descriptions are not unique). */
    public Map<Long, Node> byGuid() {
        Map<Long, Node> m = new LinkedHashMap<>();
        for (Node n : nodes) m.putIfAbsent(n.guid(), n);
        return m;
    }

    public List<Node> switches() {
        List<Node> out = new ArrayList<>();
        for (Node n : nodes) if (n.type() == NodeType.SWITCH) out.add(n);
        return out;
    }
}
