package io.ibaccept.cli;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.Routing;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ibdmchk (Debian ibutils 1.5.7) as an independent judge of opensm's routes: it reads the files opensm writes with the
 * ROUTING log flag (opensm-subnet.lst, opensm.fdbs, opensm.mcfdbs) and prints its reachability and credit-loop
 * verdicts. .ci/run unpacks the package into a private prefix (it also carries an old ibdiagnet that must not shadow
 * anything) and passes the binary as IBACCEPT_IBDMCHK. ibdmchk may crash after printing its report: its text is read,
 * not its exit code.
 */
final class Ibdmchk {
    private Ibdmchk() {}

    /** The binary, or empty when not given (a failure when IBACCEPT_REQUIRE_SIM=1: CI unpacks it). */
    static Optional<Path> binary() {
        String p = System.getenv("IBACCEPT_IBDMCHK");
        if (p != null && Files.isExecutable(Path.of(p))) return Optional.of(Path.of(p));
        if ("1".equals(System.getenv("IBACCEPT_REQUIRE_SIM")))
            throw new AssertionError("IBACCEPT_REQUIRE_SIM=1 but IBACCEPT_IBDMCHK does not name an executable ibdmchk (.ci/run unpacks ibutils)");
        return Optional.empty();
    }

    /** An opensm.conf (as 'opensm -c' writes it) that makes opensm write the files ibdmchk reads into dir. */
    static String withDumps(String conf, Path dir) {
        if (!conf.contains("\nlog_flags ") || !conf.contains("\ndump_files_dir ")) throw new AssertionError("no log_flags / dump_files_dir line to set");
        return conf.replaceFirst("\nlog_flags [^\n]*", "\nlog_flags 0x43").replaceFirst("\ndump_files_dir [^\n]*", java.util.regex.Matcher.quoteReplacement("\ndump_files_dir " + dir));
    }

    /** ibdmchk's report on the files opensm wrote into dir. */
    static String run(Path bin, Path dir) throws Exception {
        Path lib = bin.getParent().getParent().resolve("lib/x86_64-linux-gnu");
        ProcessBuilder pb = new ProcessBuilder(bin.toString(), "-s", dir.resolve("opensm-subnet.lst").toString(), "-f",
                dir.resolve("opensm.fdbs").toString(), "-m", dir.resolve("opensm.mcfdbs").toString());
        pb.environment().put("LD_LIBRARY_PATH", lib.toString());
        pb.environment().remove("LD_PRELOAD");
        pb.directory(dir.toFile());
        pb.redirectErrorStream(true);
        Path out = dir.resolve("ibdmchk.out");
        pb.redirectOutput(out.toFile());
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("ibdmchk did not finish in 120 s; see " + out);
        }
        return Files.readString(out, StandardCharsets.ISO_8859_1);
    }

    private static final Pattern LOOP_PORT = Pattern.compile("(?:Found credit loop on|- BT credit loop through): S([0-9a-f]{16})/U1/P(\\d+) VL");

    /** The switch ports of the credit loop ibdmchk found ("0x...:4"), empty when it found none. */
    static TreeSet<String> creditLoopPorts(String report) {
        TreeSet<String> out = new TreeSet<>();
        Matcher m = LOOP_PORT.matcher(report);
        while (m.find()) out.add(Long.parseUnsignedLong(m.group(1), 16) + ":" + m.group(2));
        return out;
    }

    private static final Pattern MISSING = Pattern.compile("-E- Found (\\d+) missing paths out of:(\\d+) paths");
    private static final Pattern SCANNED = Pattern.compile("-I- Scanned:(\\d+) CA to CA paths");

    /** {missing, all} CA to CA paths as ibdmchk counted them. */
    static int[] paths(String report) {
        Matcher m = MISSING.matcher(report);
        if (m.find()) return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
        Matcher s = SCANNED.matcher(report);
        if (s.find()) return new int[] {0, Integer.parseInt(s.group(1))};
        throw new AssertionError("ibdmchk printed no CA to CA path result:\n" + report);
    }

    /** The same count from our walk: every ordered pair of CAs, from the switch the source is cabled to. */
    static int[] paths(Fabric f, Routing r) {
        List<Fabric.Node> cas = f.cas();
        int missing = 0, all = 0;
        for (Fabric.Node a : cas) {
            Long from = null;
            for (Fabric.Link l : f.linksOf(a.guid())) {
                Fabric.Node sw = f.node(l.other(l.endAt(a.guid())).guid());
                if (sw != null && sw.isSwitch() && l.isActive()) from = sw.guid();
            }
            if (from == null) continue;
            for (Fabric.Node b : cas) {
                if (b == a || r.lidOfNode(b.guid()) == 0) continue;
                all++;
                if (r.path(from, r.lidOfNode(b.guid())).isEmpty()) missing++;
            }
        }
        return new int[] {missing, all};
    }

    /** Our credit loops' switch ports, as creditLoopPorts names them. */
    static TreeSet<String> creditLoopPorts(Routing r) {
        TreeSet<String> out = new TreeSet<>();
        for (Routing.CreditLoop c : r.creditLoops()) for (Routing.Hop h : c.cycle()) out.add(h.switchGuid() + ":" + h.port());
        return out;
    }

    static List<String> lines(String report, String prefix) {
        List<String> out = new ArrayList<>();
        for (String l : report.split("\n")) if (l.startsWith(prefix)) out.add(l);
        return out;
    }
}
