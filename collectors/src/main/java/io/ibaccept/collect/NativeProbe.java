package io.ibaccept.collect;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Host facts read through native calls (JNA): the memlock rlimit via getrlimit(2), and the CA names and port state via
 * libibumad when it is installed. Every part falls back cleanly: a missing library yields "unavailable" values.
 */
public final class NativeProbe {
    private NativeProbe() {}

    public interface CLib extends Library {
        int getrlimit(int resource, RLimit rlim);
    }

    @Structure.FieldOrder({"rlim_cur", "rlim_max"})
    public static class RLimit extends Structure {
        public long rlim_cur;
        public long rlim_max;
    }

    /** The subset of libibumad used; umad_get_cas_names fills names[max][UMAD_CA_NAME_LEN=20]. */
    public interface Umad extends Library {
        int umad_init();

        int umad_get_cas_names(Pointer names, int max);

        int umad_get_port(String caName, int portnum, UmadPort port);

        int umad_release_port(UmadPort port);
    }

    /** umad_port_t from <infiniband/umad.h> (capmask, gid_prefix, port_guid are big-endian on the wire). */
    @Structure.FieldOrder({"ca_name", "portnum", "base_lid", "lmc", "sm_lid", "sm_sl", "state", "phys_state", "rate",
            "capmask", "gid_prefix", "port_guid", "pkeys_size", "pkeys", "link_layer"})
    public static class UmadPort extends Structure {
        public byte[] ca_name = new byte[UMAD_CA_NAME_LEN];
        public int portnum;
        public int base_lid;
        public int lmc;
        public int sm_lid;
        public int sm_sl;
        public int state;
        public int phys_state;
        public int rate;
        public int capmask;
        public long gid_prefix;
        public long port_guid;
        public int pkeys_size;
        public Pointer pkeys;
        public byte[] link_layer = new byte[UMAD_CA_NAME_LEN];
    }

    static final String[] PORT_STATES = {"NOP", "Down", "Initializing", "Armed", "Active", "ActiveDefer"};
    static final String[] PHYS_STATES = {"NOP", "Sleep", "Polling", "Disabled", "PortConfigurationTraining", "LinkUp",
            "LinkErrorRecovery", "PhyTest"};

    static final int RLIMIT_MEMLOCK = 8; // Linux, all architectures ibaccept targets
    static final long RLIM_INFINITY = -1L;
    static final int UMAD_CA_NAME_LEN = 20;

    public static Map<String, String> probe() {
        Map<String, String> out = new LinkedHashMap<>();
        out.putAll(memlock());
        out.putAll(umadCas(List.of("ibumad", "libibumad.so.3")));
        return out;
    }

    static Map<String, String> memlock() {
        Map<String, String> out = new LinkedHashMap<>();
        try {
            CLib c = Native.load("c", CLib.class);
            RLimit r = new RLimit();
            if (c.getrlimit(RLIMIT_MEMLOCK, r) != 0) {
                out.put("memlock", "unavailable: getrlimit failed errno " + Native.getLastError());
                return out;
            }
            out.put("memlock_soft_kib", r.rlim_cur == RLIM_INFINITY ? "unlimited" : String.valueOf(r.rlim_cur / 1024));
            out.put("memlock_hard_kib", r.rlim_max == RLIM_INFINITY ? "unlimited" : String.valueOf(r.rlim_max / 1024));
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            out.put("memlock", "unavailable: " + e.getMessage());
        }
        return out;
    }

    static Map<String, String> umadCas(List<String> libNames) {
        Map<String, String> out = new LinkedHashMap<>();
        Umad u = null;
        String why = "";
        for (String n : libNames) {
            try {
                u = Native.load(n, Umad.class);
                break;
            } catch (UnsatisfiedLinkError e) {
                why = e.getMessage().lines().findFirst().orElse("");
            }
        }
        if (u == null) {
            out.put("umad", "unavailable: libibumad not installed (" + why + ")");
            return out;
        }
        try {
            u.umad_init();
            int max = 32;
            Memory names = new Memory((long) max * UMAD_CA_NAME_LEN);
            names.clear();
            int n = u.umad_get_cas_names(names, max);
            if (n < 0) {
                out.put("umad", "error: umad_get_cas_names returned " + n);
                return out;
            }
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < n; i++) sb.append(i == 0 ? "" : " ").append(names.getString((long) i * UMAD_CA_NAME_LEN));
            out.put("umad", "ok");
            out.put("umad_ca_count", String.valueOf(n));
            out.put("umad_cas", sb.toString());
            for (int i = 0; i < n; i++) {
                String ca = names.getString((long) i * UMAD_CA_NAME_LEN);
                UmadPort p = new UmadPort();
                // portnum 0: the first port that is active, or else the first port (libibumad semantics)
                if (u.umad_get_port(ca, 0, p) < 0) {
                    out.put("umad." + ca, "umad_get_port failed");
                    continue;
                }
                String key = "umad." + ca + "." + p.portnum;
                out.put(key + ".state", p.state >= 0 && p.state < PORT_STATES.length ? PORT_STATES[p.state] : String.valueOf(p.state));
                out.put(key + ".phys_state", p.phys_state >= 0 && p.phys_state < PHYS_STATES.length ? PHYS_STATES[p.phys_state] : String.valueOf(p.phys_state));
                out.put(key + ".rate", String.valueOf(p.rate));
                out.put(key + ".base_lid", String.valueOf(p.base_lid));
                out.put(key + ".sm_lid", String.valueOf(p.sm_lid));
                out.put(key + ".port_guid", String.format("0x%016x", Long.reverseBytes(p.port_guid)));
                out.put(key + ".link_layer", new String(p.link_layer, java.nio.charset.StandardCharsets.US_ASCII).trim().replace("\0", ""));
                u.umad_release_port(p);
            }
        } catch (UnsatisfiedLinkError e) {
            out.put("umad", "unavailable: " + e.getMessage());
        }
        return out;
    }
}
