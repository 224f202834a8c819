package io.ibaccept.fabric;

import io.ibaccept.parse.IbnetdiscoverParser;
import io.ibaccept.parse.ParseException;
import io.ibaccept.parse.SourceRef;
import io.ibaccept.parse.Text;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * The customer's cabling plan: cables with two named ends. Read from a CSV {@code switch,port,peer,peer_port[,cable_id]}
 * (names as in the node-name-map or node descriptions, GUIDs 0x..., switches' short names and host names as PlanDiff
 * resolves them; an optional header line; '#' comments) or from a
 * golden ibnetdiscover file of the fabric as accepted. Unreadable rows are kept as problems with file:line.
 */
public record CablingPlan(String source, List<Cable> cables, List<Problem> problems) {
    public CablingPlan {
        cables = List.copyOf(cables);
        problems = List.copyOf(problems);
    }

    /** One planned cable; a/b are a node name or a GUID written 0x..., cableId may be empty. */
    public record Cable(String a, int aPort, String b, int bPort, String cableId, SourceRef ref) {}

    public record Problem(SourceRef ref, String message) {}

    /**
     * Reads a plan file; the file name (not its full path) is what findings cite. A file that cannot be a plan (not a
     * regular file, above 64 MiB, binary) is refused ({@link io.ibaccept.safety.SideInput.Refused}): a plan not read
     * must not let the cabling pass.
     */
    public static CablingPlan load(Path file) throws IOException {
        byte[] bytes = io.ibaccept.safety.SideInput.bytes(file, 64L << 20, "cabling plan");
        // undecodable bytes become U+FFFD: the row that holds them is reported, the rest of the plan still counts
        String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE).decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        return parse(new Text(file.getFileName().toString(), text));
    }

    public static CablingPlan parse(Text t) {
        if (looksLikeIbnetdiscover(t)) return fromGolden(t);
        List<Cable> cables = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        CSVFormat fmt = CSVFormat.DEFAULT.builder().setCommentMarker('#').setIgnoreSurroundingSpaces(true).setIgnoreEmptyLines(true).get();
        try {
            for (CSVRecord r : fmt.parse(new StringReader(t.content()))) {
                int line = (int) r.getParser().getCurrentLineNumber();
                SourceRef ref = t.at(line);
                if (r.size() < 4) {
                    problems.add(new Problem(ref, "expected switch,port,peer,peer_port[,cable_id], found " + r.size() + " column(s)"));
                    continue;
                }
                if (r.getRecordNumber() == 1 && !r.get(1).matches("\\d+")) continue; // header
                try {
                    int p = Integer.parseInt(r.get(1)), pp = Integer.parseInt(r.get(3));
                    if (r.get(0).isEmpty() || r.get(2).isEmpty()) throw new NumberFormatException();
                    cables.add(new Cable(r.get(0), p, r.get(2), pp, r.size() > 4 ? r.get(4) : "", ref));
                } catch (NumberFormatException e) {
                    problems.add(new Problem(ref, "port numbers must be integers and names non-empty: '" + String.join(",", r.toList()) + "'"));
                }
            }
        } catch (IOException | java.io.UncheckedIOException | IllegalStateException e) {
            problems.add(new Problem(t.at(0), "unreadable CSV: " + e.getMessage()));
        }
        if (cables.isEmpty() && problems.isEmpty()) problems.add(new Problem(t.at(0), "no cables in the plan"));
        return new CablingPlan(t.name(), cables, problems);
    }

    /** A golden ibnetdiscover: every cable between two nodes it lists, named by GUID so renames do not matter. */
    static CablingPlan fromGolden(Text t) {
        try {
            Fabric g = FabricBuilder.build(IbnetdiscoverParser.parse(t), null, null);
            List<Cable> cables = new ArrayList<>();
            for (Fabric.Link l : g.links())
                cables.add(new Cable(guid(g, l.a().guid()), l.a().port(), guid(g, l.b().guid()), l.b().port(), "",
                        l.refs().isEmpty() ? t.at(0) : l.refs().get(0)));
            return new CablingPlan(t.name(), cables, List.of());
        } catch (ParseException e) {
            return new CablingPlan(t.name(), List.of(), List.of(new Problem(e.where(), e.reason())));
        }
    }

    private static String guid(Fabric g, long guid) {
        // ibsim-style ids without a GUID keep their node name
        return guid < 0 ? g.name(guid) : String.format("0x%016x", guid);
    }

    private static boolean looksLikeIbnetdiscover(Text t) {
        for (String line : t.lines()) {
            String s = line.trim();
            if (s.isEmpty()) continue;
            if (s.startsWith("# Topology file") || s.startsWith("vendid=") || s.matches("^(Switch|Ca|Hca|Rt)\\s+\\d+\\s+\".*")) return true;
            if (!s.startsWith("#")) return false;
        }
        return false;
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
