package io.ibaccept.model;

import java.util.Map;
import java.util.SortedMap;

/** One switch's unicast forwarding table as ibroute prints it: destination LID -> output port (0: the switch itself). */
public record Lft(int switchLid, long switchGuid, String switchName, SortedMap<Integer, Integer> ports) {
    public Lft {
        ports = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(ports));
    }

    /** How many destination LIDs leave through this port. */
    public int routedOut(int port) {
        int n = 0;
        for (Map.Entry<Integer, Integer> e : ports.entrySet()) if (e.getValue() == port) n++;
        return n;
    }
}
