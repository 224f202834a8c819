package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;

/** The fabric as {@code ibnetdiscover} sees it. */
public record Topology(List<Node> nodes) {
    public Topology {
        nodes = List.copyOf(nodes);
    }

    public enum NodeType { SWITCH, CA, ROUTER }

    /** lid is the switch base-port-0 LID; for CAs it is 0 (port LIDs are on the ports). */
    public record Node(NodeType type, long guid, String id, String description, int numPorts, int lid,
                       List<Port> ports, SourceRef ref) {
        public Node {
            ports = List.copyOf(ports);
        }
    }

    /** One connected port line. portGuid/lid are known for CA ports; width/speed may be null if not printed. */
    public record Port(int port, long portGuid, int lid, String remoteId, long remoteGuid, int remotePort,
                       String remoteDescription, int remoteLid, LinkWidth width, LinkSpeed speed, SourceRef ref) {}
}
