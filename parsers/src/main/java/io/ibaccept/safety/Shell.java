package io.ibaccept.safety;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one place where values become shell text. Every untrusted value (host, device, interface and test names from the
 * command line, host files, Slurm or a dump) is validated by one of the {@code require*} methods before it reaches a
 * command, and every argument is quoted with {@link #quote} (POSIX sh, bash, zsh, dash: single quotes). Report fix
 * texts that paste names into commands use {@link #quote} or {@link #join} too.
 */
public final class Shell {
    private Shell() {}

    /** A value that must not reach a command line or a file name. The message names the value and what is allowed. */
    public static final class UnsafeValue extends IllegalArgumentException {
        public UnsafeValue(String message) {
            super(message, null);
        }
    }

    /** Characters that never need quoting in any POSIX shell. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");
    /**
     * Host names: RFC 1123 labels (letters, digits, '-') plus '_' and '.' as Slurm node names allow; starts with a
     * letter or digit (never '-', which ssh and srun would take as an option, never '.', which could be '..').
     */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");
    /** RDMA device names as the kernel names them: mlx5_0, hfi1_0, rxe0, irdma1. */
    private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9_]{1,64}");
    /** Network interface names (IFNAMSIZ 16 with the NUL): ib0, ib0.8001 (child), enp65s0f0np0, bond0:1. */
    private static final Pattern IFACE = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.:-]{0,14}");

    /** The perftest (linux-rdma/perftest) programs ibaccept may run. */
    public static final Set<String> PERFTESTS = Set.of("ib_write_bw", "ib_write_lat", "ib_read_bw", "ib_read_lat",
            "ib_send_bw", "ib_send_lat", "ib_atomic_bw", "ib_atomic_lat", "raw_ethernet_bw", "raw_ethernet_lat",
            "raw_ethernet_burst_lat", "raw_ethernet_fs_rate");

    /**
     * Quotes one argument for a POSIX shell so it stays one word and nothing in it is expanded: plain words are left
     * as they are (readable command lines in the dump and the report), anything else goes in single quotes with
     * embedded single quotes written as {@code '\''}.
     */
    public static String quote(String s) {
        if (s == null) throw new UnsafeValue("null argument");
        if (!s.isEmpty() && PLAIN.matcher(s).matches()) return s;
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** argv -> one shell command line, each word quoted. */
    public static String join(List<String> argv) {
        StringBuilder sb = new StringBuilder();
        for (String a : argv) {
            if (sb.length() > 0) sb.append(' ');
            sb.append(quote(a));
        }
        return sb.toString();
    }

    public static String join(String... argv) {
        return join(List.of(argv));
    }

    /** Splits an operator's option string ("-a -F --iters 5000") on whitespace and quotes each word. */
    public static String words(String options) {
        if (options == null || options.isBlank()) return "";
        return join(List.of(options.trim().split("\\s+")));
    }

    public static boolean isHost(String s) {
        return s != null && HOST.matcher(s).matches() && !s.contains("..");
    }

    /** A host name that is safe as an ssh/srun target, a shell word and a directory name. */
    public static String requireHost(String s) {
        if (!isHost(s)) throw new UnsafeValue("host name " + show(s) + " is not allowed: use letters, digits, '-', '_' and '.'"
                + " (starting with a letter or digit, at most 253 characters)");
        return s;
    }

    public static String requireDevice(String s) {
        if (s == null || !DEVICE.matcher(s).matches())
            throw new UnsafeValue("device name " + show(s) + " is not allowed: use letters, digits and '_' (e.g. mlx5_0)");
        return s;
    }

    public static String requireInterface(String s) {
        if (s == null || !IFACE.matcher(s).matches() || s.contains(".."))
            throw new UnsafeValue("interface name " + show(s) + " is not allowed: at most 15 of letters, digits, '_', '.', ':', '-'"
                    + " (not starting with '-' or '.', e.g. ib0 or ib0.8001)");
        return s;
    }

    public static String requirePerftest(String s) {
        if (s == null || !PERFTESTS.contains(s))
            throw new UnsafeValue("unknown perftest " + show(s) + ": one of " + PERFTESTS.stream().sorted().toList());
        return s;
    }

    public static int requirePort(int port) {
        if (port < 1 || port > 65535) throw new UnsafeValue("port " + port + " is not a TCP port (1-65535)");
        return port;
    }

    /** The value for a message: quoted, control characters made visible, long values cut. */
    static String show(String s) {
        if (s == null) return "(none)";
        StringBuilder sb = new StringBuilder("'");
        s.codePoints().limit(80).forEach(c -> {
            if (c < 0x20 || c == 0x7f) sb.append(String.format("\\x%02x", c));
            else sb.appendCodePoint(c);
        });
        if (s.codePointCount(0, s.length()) > 80) sb.append("...");
        return sb.append('\'').toString();
    }
}
