package io.ibaccept.model;

import java.util.List;
import java.util.Map;

/**
 * The unicast forwarding tables of the fabric's switches (dump_fts), and what each destination LID is, as the tool
 * resolved it when it printed the tables: a port GUID and its node's type and description (LMC > 0: every LID of
 * the port's range names the port). A LID the tool could not resolve has no destination.
 */
public record ForwardingTables(List<Lft> switches, Map<Integer, Destination> destinations) {
    public ForwardingTables {
        switches = List.copyOf(switches);
        destinations = Map.copyOf(destinations);
    }

    /** What a LID is: type as the tool prints it ("Channel Adapter", "Switch", "Router"). */
    public record Destination(int lid, String type, long portGuid, String description) {
        public boolean isSwitch() {
            return type.equals("Switch");
        }
    }
}
