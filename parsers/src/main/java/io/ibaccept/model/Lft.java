package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * One switch's unicast forwarding table as ibroute and dump_fts print it: destination LID -> output port (0: the
 * switch itself). Kept as one array per switch (a 2,000-switch fabric with 40,000 LIDs is 80 million entries), with
 * where the switch's table starts in its file.
 */
public final class Lft {
    /** LIDs are 16 bits; unicast LIDs end at 0xbfff. */
    public static final int MAX_UNICAST_LID = 0xbfff;
    private static final short NONE = -1;

    private final int switchLid;
    private final long switchGuid;
    private final String switchName;
    private final SourceRef ref;
    private final short[] out;
    private final int routed;

    private Lft(int switchLid, long switchGuid, String switchName, SourceRef ref, short[] out, int routed) {
        this.switchLid = switchLid;
        this.switchGuid = switchGuid;
        this.switchName = switchName;
        this.ref = ref;
        this.out = out;
        this.routed = routed;
    }

    /** The switch's own LID as the heading or its port-0 entry gives it; 0 when neither does. */
    public int switchLid() {
        return switchLid;
    }

    public long switchGuid() {
        return switchGuid;
    }

    /** The node description the tool printed in the heading. */
    public String switchName() {
        return switchName;
    }

    /** The heading line of the table in its file. */
    public SourceRef ref() {
        return ref;
    }

    /** The output port for this destination LID, -1 when the table has no entry for it. */
    public int port(int lid) {
        return lid >= 0 && lid < out.length ? out[lid] : NONE;
    }

    /** How many destination LIDs the table routes. */
    public int routed() {
        return routed;
    }

    /** The LIDs the table routes, ascending. */
    public IntStream lids() {
        return IntStream.range(0, out.length).filter(l -> out[l] != NONE);
    }

    /** How many destination LIDs leave through this port. */
    public int routedOut(int port) {
        int n = 0;
        for (short p : out) if (p == port) n++;
        return n;
    }

    /** Fills one switch's table line by line. */
    public static final class Builder {
        private final int headingLid;
        private final long switchGuid;
        private final String switchName;
        private final SourceRef ref;
        private short[] out = new short[64];
        private int top = -1, routed, ownLid;

        public Builder(int headingLid, long switchGuid, String switchName, SourceRef ref) {
            this.headingLid = headingLid;
            this.switchGuid = switchGuid;
            this.switchName = switchName;
            this.ref = ref;
            Arrays.fill(out, NONE);
        }

        /** lid: 0..MAX_UNICAST_LID, port: 0..254; a LID given twice keeps its last port, as a switch would. */
        public Builder put(int lid, int port) {
            if (lid < 0 || lid > MAX_UNICAST_LID || port < 0 || port > 254) throw new IllegalArgumentException("LID " + lid + " port " + port);
            if (lid >= out.length) {
                int old = out.length;
                out = Arrays.copyOf(out, Math.min(MAX_UNICAST_LID + 1, Math.max(lid + 1, old * 2)));
                Arrays.fill(out, old, out.length, NONE);
            }
            if (out[lid] == NONE) routed++;
            out[lid] = (short) port;
            if (port == 0 && ownLid == 0) ownLid = lid;
            top = Math.max(top, lid);
            return this;
        }

        public Lft build() {
            return new Lft(headingLid > 0 ? headingLid : ownLid, switchGuid, switchName, ref, Arrays.copyOf(out, top + 1), routed);
        }
    }
}
