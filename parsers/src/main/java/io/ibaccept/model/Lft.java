package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * One switch's unicast forwarding table as ibroute and dump_fts print it: destination LID -> output port (0: the
 * switch itself), with where the switch's table starts in its file.
 *
 * <p>Held in what the entries printed need, never in what a LID claims: a real table (LIDs 1..top, nearly all routed)
 * is one 2-byte entry per LID from its lowest routed LID to its highest; a sparse one (a few entries at high LIDs, as
 * only a damaged or hostile file has) is 4 bytes per entry printed. A subnet at its LID limit (49,151 unicast LIDs,
 * some 2,500 switches) is then about 250 MB of tables, and a file cannot make it more than 4 bytes per line it holds.
 */
public final class Lft {
    /** LIDs are 16 bits; unicast LIDs end at 0xbfff. */
    public static final int MAX_UNICAST_LID = 0xbfff;
    /** Highest port number a forwarding table entry can name (255 is reserved). */
    public static final int MAX_PORT = 254;
    private static final short NONE = -1;

    private final int switchLid;
    private final long switchGuid;
    private final String switchName;
    private final SourceRef ref;
    /** dense: out[lid - base]; null when sparse */
    private final short[] out;
    private final int base;
    /** sparse: (lid << 8 | port), ascending; null when dense */
    private final int[] entries;
    private final int routed;

    private Lft(int switchLid, long switchGuid, String switchName, SourceRef ref, short[] out, int base, int[] entries, int routed) {
        this.switchLid = switchLid;
        this.switchGuid = switchGuid;
        this.switchName = switchName;
        this.ref = ref;
        this.out = out;
        this.base = base;
        this.entries = entries;
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
        if (out != null) {
            int i = lid - base;
            return i >= 0 && i < out.length ? out[i] : NONE;
        }
        if (lid < 0 || lid > MAX_UNICAST_LID) return NONE;
        int k = Arrays.binarySearch(entries, lid << 8);
        if (k < 0) k = -k - 1;
        return k < entries.length && entries[k] >>> 8 == lid ? entries[k] & 0xff : NONE;
    }

    /** How many destination LIDs the table routes. */
    public int routed() {
        return routed;
    }

    /** The LIDs the table routes, ascending. */
    public IntStream lids() {
        if (out == null) return Arrays.stream(entries).map(e -> e >>> 8);
        return IntStream.range(0, out.length).filter(i -> out[i] != NONE).map(i -> i + base);
    }

    /** How many destination LIDs leave through this port. */
    public int routedOut(int port) {
        int n = 0;
        if (out != null) {
            for (short p : out) if (p == port) n++;
        } else {
            for (int e : entries) if ((e & 0xff) == port) n++;
        }
        return n;
    }

    /** Whether both tables route every LID the same way. */
    public boolean sameRoutes(Lft o) {
        return routed == o.routed && lids().allMatch(l -> port(l) == o.port(l));
    }

    /**
     * Fills one switch's table line by line. The table being filled is held as one 2-byte entry per LID up to its
     * highest (at most 96 KiB), then kept in the smaller of the two forms.
     */
    public static final class Builder {
        private final int headingLid;
        private final long switchGuid;
        private final String switchName;
        private final SourceRef ref;
        private short[] out = new short[64];
        private int top = -1, bottom = Integer.MAX_VALUE, routed, ownLid;

        public Builder(int headingLid, long switchGuid, String switchName, SourceRef ref) {
            this.headingLid = headingLid;
            this.switchGuid = switchGuid;
            this.switchName = switchName;
            this.ref = ref;
            Arrays.fill(out, NONE);
        }

        /**
         * lid: 0..MAX_UNICAST_LID, port: 0..MAX_PORT. A switch holds one entry per LID: a LID given again keeps its
         * first port, and the port already held is returned (-1 when the LID is new) so the reader can say so.
         */
        public int put(int lid, int port) {
            if (lid < 0 || lid > MAX_UNICAST_LID || port < 0 || port > MAX_PORT) throw new IllegalArgumentException("LID " + lid + " port " + port);
            if (lid >= out.length) {
                int old = out.length;
                out = Arrays.copyOf(out, Math.min(MAX_UNICAST_LID + 1, Math.max(lid + 1, old * 2)));
                Arrays.fill(out, old, out.length, NONE);
            }
            if (out[lid] != NONE) return out[lid];
            routed++;
            out[lid] = (short) port;
            if (port == 0 && ownLid == 0) ownLid = lid;
            top = Math.max(top, lid);
            bottom = Math.min(bottom, lid);
            return -1;
        }

        public Lft build() {
            int lid = headingLid > 0 ? headingLid : ownLid;
            if (routed == 0) return new Lft(lid, switchGuid, switchName, ref, new short[0], 0, null, 0);
            int span = top - bottom + 1;
            if (2L * span <= 4L * routed)
                return new Lft(lid, switchGuid, switchName, ref, Arrays.copyOfRange(out, bottom, top + 1), bottom, null, routed);
            int[] entries = new int[routed];
            for (int l = bottom, k = 0; l <= top; l++) if (out[l] != NONE) entries[k++] = l << 8 | out[l];
            return new Lft(lid, switchGuid, switchName, ref, null, 0, entries, routed);
        }
    }
}
