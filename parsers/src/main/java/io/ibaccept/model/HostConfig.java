package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Map;

/**
 * Host configuration beyond the IB port: the network interfaces as iproute2 prints them (IPoIB mode, MTU,
 * state, addresses), time synchronisation (chronyc tracking) and the HCAs' firmware configuration (mlxconfig q). Each
 * part is null when its input was not collected or unusable.
 */
public record HostConfig(List<IpLink> links, TimeSync time, List<MlxDevice> mlxconfig) {
    public HostConfig {
        links = links == null ? null : List.copyOf(links);
        mlxconfig = mlxconfig == null ? null : List.copyOf(mlxconfig);
    }

    /** Only the IPoIB interfaces (link/infiniband), in the order ip printed them; empty when none or not collected. */
    public List<IpLink> ipoib() {
        return links == null ? List.of() : links.stream().filter(IpLink::isIpoib).toList();
    }

    /**
     * One interface of {@code ip -d addr show}: header "IDX: NAME[@PARENT]: <FLAGS> mtu N ... state S ...", the
     * "link/TYPE ADDR brd ..." line, for IPoIB the "ipoib pkey 0x.. mode datagram|connected umcast .." line (printed
     * only by kernels that report the IPoIB netlink attributes: mode and pkey are null otherwise), and inet/inet6
     * addresses. portGuid: the last 8 bytes of the 20-byte IPoIB hardware address (the IB port it runs on), 0 if
     * unknown. master: the bond (or other master device) this interface is enslaved to ("master bond0" in the header),
     * else null; a bond slave carries no address of its own.
     */
    public record IpLink(String name, String parent, List<String> flags, int mtu, String state, String linkType,
                         long portGuid, Integer pkey, String mode, List<String> addresses, SourceRef ref, String master) {
        public IpLink {
            flags = List.copyOf(flags);
            addresses = List.copyOf(addresses);
        }

        public boolean isIpoib() {
            return "infiniband".equals(linkType);
        }

        /** Administratively up ("UP" flag) with a carrier ("LOWER_UP"): the state an engineer calls "up". */
        public boolean isUp() {
            return flags.contains("UP") && flags.contains("LOWER_UP");
        }

        /** IPv4 addresses only (an IPv6 link-local address is there on every up interface and says nothing). */
        public List<String> ipv4() {
            return addresses.stream().filter(a -> a.indexOf(':') < 0).toList();
        }
    }

    /**
     * chronyc tracking (source "chrony"), or linuxptp's TIME_STATUS_NP where chrony is absent (source "ptp": systemTime is
     * ptp4l's master_offset, the PHC against the grandmaster). chronyc tracking: offsets in seconds, systemTime signed (+ fast, - slow of NTP time), NaN where not printed;
     * stratum -1 when absent. leapStatus as printed ("Normal", "Not synchronised", "Insert second", ...).
     */
    public record TimeSync(String source, String referenceId, String referenceName, int stratum, double systemTime,
                           double lastOffset, double rmsOffset, String leapStatus, SourceRef ref, SourceRef leapRef,
                           SourceRef offsetRef) {
        /**
         * chronyd says it is not synchronised, or follows no reference (ID 00000000, stratum 0); for PTP (source
         * "ptp", leapStatus "gmPresent true|false") ptp4l sees no grandmaster.
         */
        public boolean synchronised() {
            if (source.equals("ptp")) return leapStatus.equals("gmPresent true");
            if (leapStatus.equalsIgnoreCase("Not synchronised") || leapStatus.equalsIgnoreCase("Not synchronized")) return false;
            return !referenceId.equals("00000000") && stratum != 0;
        }

        /** ptp4l's own clock is the grandmaster: the cluster's time source if other hosts follow it, else isolated. */
        public boolean isGrandmaster() {
            return source.equals("ptp") && leapStatus.equals("grandmaster");
        }

        /** The largest of |System time| and |Last offset|: how far off the clock is or was at the last update. */
        public double worstOffset() {
            double a = Double.isNaN(systemTime) ? 0 : Math.abs(systemTime);
            double b = Double.isNaN(lastOffset) ? 0 : Math.abs(lastOffset);
            return Math.max(a, b);
        }
    }

    /**
     * One device of {@code mlxconfig q}: its header (Device type, Name = part number, Device = the -d argument) and the
     * settings in the column shown (Next Boot, or Current where printed), values as printed ("True(1)", "255").
     */
    public record MlxDevice(String deviceType, String partName, String device, String column,
                            Map<String, String> settings, Map<String, SourceRef> refs, SourceRef ref) {
        public MlxDevice {
            settings = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(settings));
            refs = Map.copyOf(refs);
        }
    }
}
