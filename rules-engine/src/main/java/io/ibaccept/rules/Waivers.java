package io.ibaccept.rules;

import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A waivers file: CSV lines {@code check,objects,reason,owner,expires} (fields with commas in double quotes, "" for a
 * quote; '#' comments and blank lines ignored; an optional header line starting with "check,"). A waiver turns matching
 * FAIL/WARN findings into WAIVED; from the day after its expiry date it no longer applies and a WARN finding says so.
 */
public record Waivers(List<Waiver> waivers) {
    public static final String CHECK = "waiver";
    private static final int MAX_LINES = 100_000;
    /** 100,000 waivers of about 160 characters. */
    private static final long MAX_BYTES = 16L << 20;

    public Waivers {
        waivers = List.copyOf(waivers);
    }

    /** An unusable waivers file; the message names file:line. */
    public static final class BadWaiversFile extends RuntimeException {
        public BadWaiversFile(String message) {
            super(message, null, false, false);
        }
    }

    public static Waivers load(Path file) {
        List<String> lines;
        try {
            lines = io.ibaccept.safety.SideInput.read(file, MAX_BYTES, "waivers file").lines().toList();
        } catch (IOException e) {
            throw new BadWaiversFile(e.getMessage());
        }
        if (lines.size() > MAX_LINES) throw new BadWaiversFile(file + ": more than " + MAX_LINES + " lines: not a waivers file");
        RuleConfig defaults = RuleConfig.defaults();
        List<Waiver> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            String where = file.getFileName() + ":" + (i + 1);
            if (line.isEmpty() || line.startsWith("#")) continue;
            List<String> f = split(line, file + ":" + (i + 1));
            if (out.isEmpty() && f.get(0).equalsIgnoreCase("check")) continue;
            String at = file + ":" + (i + 1) + ": ";
            if (f.size() != 5)
                throw new BadWaiversFile(at + "expected 5 fields (check,objects,reason,owner,expires YYYY-MM-DD), found " + f.size());
            String check = f.get(0), objects = f.get(1), reason = f.get(2), owner = f.get(3);
            if (defaults.text(check, "title").isEmpty())
                throw new BadWaiversFile(at + "unknown check '" + check + "' (check ids are the report's, e.g. memlock, link.width)");
            if (objects.isEmpty()) throw new BadWaiversFile(at + "empty object pattern (use * for all objects)");
            if (reason.isEmpty()) throw new BadWaiversFile(at + "a waiver needs a reason");
            if (owner.isEmpty()) throw new BadWaiversFile(at + "a waiver needs an owner");
            LocalDate expires;
            try {
                expires = LocalDate.parse(f.get(4));
            } catch (DateTimeParseException e) {
                throw new BadWaiversFile(at + "expiry date must be YYYY-MM-DD, found '" + f.get(4) + "'");
            }
            Waiver w = new Waiver(check, objects, reason, owner, expires, where);
            try {
                w.pattern();
            } catch (IllegalArgumentException e) {
                throw new BadWaiversFile(at + e.getMessage());
            }
            out.add(w);
        }
        return new Waivers(out);
    }

    private static List<String> split(String line, String at) {
        List<String> fields = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false, wasQuoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') { cur.append('"'); i++; }
                else if (c == '"') quoted = false;
                else cur.append(c);
            } else if (c == '"' && cur.toString().isBlank()) {
                cur.setLength(0);
                quoted = wasQuoted = true;
            } else if (c == ',') {
                fields.add(wasQuoted ? cur.toString() : cur.toString().strip());
                cur.setLength(0);
                wasQuoted = false;
            } else if (wasQuoted && !Character.isWhitespace(c)) {
                throw new BadWaiversFile(at + ": text after a closing quote");
            } else {
                cur.append(c);
            }
        }
        if (quoted) throw new BadWaiversFile(at + ": unterminated quote");
        fields.add(wasQuoted ? cur.toString() : cur.toString().strip());
        return fields;
    }

    /**
     * The report with matching FAIL/WARN findings WAIVED. A finding whose objects are only partly matched is split: the
     * matched objects become a WAIVED finding, the rest keep their status. Expired waivers add a WARN finding each.
     */
    public Report apply(Report r, LocalDate today) {
        int[] used = new int[waivers.size()];
        List<Finding> out = new ArrayList<>();
        for (Finding f : r.findings()) {
            if (f.status() != Status.FAIL && f.status() != Status.WARN) { out.add(f); continue; }
            List<String> rest = new ArrayList<>(f.objects());
            List<String> waived = new ArrayList<>();
            for (int i = 0; i < waivers.size(); i++) {
                Waiver w = waivers.get(i);
                if (w.expiredOn(today) || !w.appliesTo(f.check())) continue;
                if (f.objects().isEmpty()) {
                    if (w.objects().equals("*")) { used[i]++; waived = null; break; }
                    continue;
                }
                boolean hit = false;
                for (var it = rest.iterator(); it.hasNext(); ) {
                    String o = it.next();
                    if (w.matchesObject(o)) { waived.add(o); it.remove(); hit = true; }
                }
                if (hit) used[i]++;
            }
            if (waived == null || (!f.objects().isEmpty() && rest.isEmpty())) {
                out.add(with(f, Status.WAIVED, f.objects()));
            } else if (waived.isEmpty()) {
                out.add(f);
            } else {
                out.add(with(f, f.status(), rest));
                out.add(with(f, Status.WAIVED, waived));
            }
        }
        List<WaiverUse> uses = new ArrayList<>(r.waivers());
        for (int i = 0; i < waivers.size(); i++) {
            Waiver w = waivers.get(i);
            boolean expired = w.expiredOn(today);
            uses.add(new WaiverUse(w, expired, used[i]));
            if (expired)
                out.add(new Finding(CHECK, "Waivers", Status.WARN, List.of(), List.of(Evidence.of(describe(w), w.where())),
                        "waiver for " + w.check() + " on " + w.objects() + " expired on " + w.expires()
                                + ": it no longer applies and the findings it covered count again",
                        "The waiver's expiry date has passed (owner " + w.owner() + ", reason: " + w.reason() + ").",
                        "Fix the findings, or renew the waiver with a new expiry date in the waivers file."));
        }
        return new Report(r.data(), out, r.rules(), uses, r.coverage());
    }

    private static String describe(Waiver w) {
        return w.check() + "," + w.objects() + "," + w.reason() + "," + w.owner() + "," + w.expires();
    }

    private static Finding with(Finding f, Status s, List<String> objects) {
        return new Finding(f.check(), f.title(), s, objects, f.evidence(), f.summary(), f.cause(), f.fix(), f.variant(), "", null, f.refs());
    }
}
