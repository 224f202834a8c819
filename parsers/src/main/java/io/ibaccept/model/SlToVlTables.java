package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;

/**
 * The SL-to-VL mapping tables of the switches (smpquery sl2vl, one table per switch LID and output port): for each
 * input port, the VL a packet of each of the 16 SLs leaves on. A path keeps its SL end to end; the VL it occupies on a
 * link is what this table of the sending switch says for the port pair it crosses.
 */
public record SlToVlTables(List<Entry> entries) {
    public SlToVlTables {
        entries = List.copyOf(entries);
    }

    /** One "ports: in I, out O" line of the switch with this LID: vls[sl] is the VL of SL sl. */
    public record Entry(int lid, int inPort, int outPort, List<Integer> vls, SourceRef ref) {
        public Entry {
            vls = List.copyOf(vls);
        }

        public int vl(int sl) {
            return vls.get(sl);
        }
    }
}
