package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;

/**
 * One port row of ibdiagnet2.net_dump (switch ports, under their switch) or ibdiagnet2.net_dump_ext (switch and CA
 * ports, with --get_phy_info). label: the port as the switch numbers it ("1/16/2" on Quantum-2), port: the IB port
 * number. width/speed/fec as printed ("4x", "100" = per-lane Gb/s, "RS_FEC_544_514"; "N/A" on a port that is down or
 * where nothing was reported). rawBer/effectiveBer/symbolBer: net_dump_ext's BER columns, "" when not reported (never
 * read as 0). neighborGuid 0 where the file names none (net_dump_ext gives only the peer's LID). description: net_dump:
 * the neighbour's, net_dump_ext: the port's own node's.
 */
public record DiagPort(boolean switchPort, long guid, int port, String label, int lid, String state, String physState, String width,
                       String speed, String fec, String retransmission, long neighborGuid, int neighborLid, String description,
                       String rawBer, String effectiveBer, String symbolBer, SourceRef ref) {
    public boolean active() {
        return state.equalsIgnoreCase("ACT");
    }

    /** Per-lane data rate in Gb/s as printed (100 on NDR), null when not reported. */
    public Integer speedGbps() {
        return speed.matches("\\d{1,4}") ? Integer.valueOf(speed) : null;
    }

    /** The FEC mode when reported (not N/A or blank). */
    public boolean fecReported() {
        return !fec.isEmpty() && !fec.equalsIgnoreCase("N/A") && !fec.equals("-");
    }

    /** A Reed-Solomon FEC of any kind (standard RS(544,514), Mellanox RS(271,257), with or without PLR). */
    public boolean reedSolomon() {
        return fec.toUpperCase(java.util.Locale.ROOT).contains("RS");
    }

    public boolean berReported() {
        return !rawBer.isEmpty() || !effectiveBer.isEmpty() || !symbolBer.isEmpty();
    }
}
