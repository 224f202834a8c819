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
    }

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
        } catch (UnsatisfiedLinkError e) {
            out.put("umad", "unavailable: " + e.getMessage());
        }
        return out;
    }
}
