package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;

/**
 * One multicast group of {@code saquery -g} (an MCMemberRecord as the SA holds it). Mtu and Rate carry a 2-bit
 * selector in their top bits (0 greater than, 1 less than, 2 exactly, 3 largest available) and the IB code in the low
 * six: 0x84 is "exactly MTU code 4" = 2048 bytes. mtuBytes is -1 when the code is not a valid MTU (1..5).
 */
public record McGroup(String mgid, int mlid, int mtuSelector, int mtuCode, int pkey, int rateSelector, int rateCode, int sl,
                      SourceRef ref) {

    public int mtuBytes() {
        return mtuCode >= 1 && mtuCode <= 5 ? 128 << mtuCode : -1;
    }

    /** The 15-bit partition number (membership bit cleared). */
    public int partition() {
        return pkey & 0x7fff;
    }

    /**
     * True for an IPoIB IPv4 broadcast group, ff1S:401b:PPPP::ffff:ffff (any scope S, P_Key PPPP): the group every
     * IPoIB interface of the partition joins, whose MTU caps the IPoIB MTU of the partition.
     */
    public boolean isIpv4Broadcast() {
        byte[] b = bytes(mgid);
        if (b == null || (b[0] & 0xff) != 0xff || (b[1] & 0xf0) != 0x10 || (b[2] & 0xff) != 0x40 || (b[3] & 0xff) != 0x1b) return false;
        for (int i = 6; i < 12; i++) if (b[i] != 0) return false;
        for (int i = 12; i < 16; i++) if ((b[i] & 0xff) != 0xff) return false;
        return true;
    }

    /** The P_Key embedded in an IPoIB MGID (bytes 4-5), -1 if the MGID is not an IPv6 literal. */
    public int mgidPkey() {
        byte[] b = bytes(mgid);
        return b == null ? -1 : ((b[4] & 0xff) << 8) | (b[5] & 0xff);
    }

    private static byte[] bytes(String mgid) {
        // only IPv6 literals (hex digits and ':'): never a name lookup
        if (mgid == null || mgid.isEmpty() || !mgid.chars().allMatch(ch -> ch == ':' || Character.digit(ch, 16) >= 0)) return null;
        try {
            byte[] b = java.net.InetAddress.getByName("[" + mgid + "]").getAddress();
            return b.length == 16 ? b : null;
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }
}
