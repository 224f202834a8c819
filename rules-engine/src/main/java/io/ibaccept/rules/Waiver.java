package io.ibaccept.rules;

import java.time.LocalDate;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One line of a waivers file: findings of {@code check} on objects matching {@code objects} are accepted until
 * {@code expires} (inclusive) for {@code reason}, signed by {@code owner}. where is the file:line it was read from.
 * The object pattern is a glob ({@code *} any text, {@code ?} one character, {@code [..]} a character class) matched
 * against the whole object ("node03 HCA-1 port 1") or its host ("node03"); {@code *} also waives findings without objects.
 */
public record Waiver(String check, String objects, String reason, String owner, LocalDate expires, String where) {

    public boolean expiredOn(LocalDate today) {
        return today.isAfter(expires);
    }

    public boolean appliesTo(String findingCheck) {
        return check.equals(findingCheck);
    }

    public boolean matchesObject(String object) {
        pattern(); // refuses an unusable glob
        Glob g = GLOBS.computeIfAbsent(objects, Glob::new);
        return g.matches(object) || g.matches(Finding.hostOf(object));
    }

    private static final java.util.Map<String, Glob> GLOBS = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The glob matched without a regex: greedy with one backtrack point per star, so a pattern of many stars against a
     * long name takes time proportional to their product at worst, never exponential.
     */
    static final class Glob {
        private final List<java.util.function.IntPredicate> tokens = new java.util.ArrayList<>(); // null: a star

        Glob(String glob) {
            for (int i = 0; i < glob.length(); i++) {
                char c = glob.charAt(i);
                int close = c == '[' ? glob.indexOf(']', i + 1) : -1;
                if (c == '*') tokens.add(null);
                else if (c == '?') tokens.add(x -> true);
                else if (c == '[' && close > i + 1) {
                    boolean negate = glob.charAt(i + 1) == '!' || glob.charAt(i + 1) == '^';
                    String body = glob.substring(negate ? i + 2 : i + 1, close);
                    java.util.function.IntPredicate in = x -> false;
                    for (int k = 0; k < body.length(); k++) {
                        char lo = body.charAt(k);
                        if (k + 2 < body.length() && body.charAt(k + 1) == '-') {
                            char hi = body.charAt(k + 2);
                            in = in.or(x -> x >= lo && x <= hi);
                            k += 2;
                        } else in = in.or(x -> x == lo);
                    }
                    tokens.add(negate ? in.negate() : in);
                    i = close;
                } else tokens.add(x -> x == c);
            }
        }

        boolean matches(String text) {
            int p = 0, t = 0, star = -1, mark = 0, m = tokens.size(), n = text.length();
            while (t < n) {
                if (p < m && tokens.get(p) != null && tokens.get(p).test(text.charAt(t))) {
                    p++;
                    t++;
                } else if (p < m && tokens.get(p) == null) {
                    star = p++;
                    mark = t;
                } else if (star >= 0) {
                    p = star + 1;
                    t = ++mark;
                } else return false;
            }
            while (p < m && tokens.get(p) == null) p++;
            return p == m;
        }
    }

    /** True if the finding is of this check and every object it names is matched (a finding without objects: only by "*"). */
    public boolean covers(Finding f) {
        if (!appliesTo(f.check())) return false;
        if (f.objects().isEmpty()) return objects.equals("*");
        for (String o : f.objects()) if (!matchesObject(o)) return false;
        return true;
    }

    private static final java.util.Map<String, Pattern> PATTERNS = new java.util.concurrent.ConcurrentHashMap<>();

    /** The glob as a regex; throws IllegalArgumentException for a glob that cannot be used (e.g. "[z-a]"). */
    Pattern pattern() {
        Pattern p = PATTERNS.get(objects);
        if (p != null) return p;
        try {
            p = compile(objects);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new IllegalArgumentException("object pattern '" + objects + "' is not a usable glob (" + e.getDescription() + ")");
        }
        if (PATTERNS.size() < 10_000) PATTERNS.put(objects, p);
        return p;
    }

    private static Pattern compile(String objects) {
        StringBuilder re = new StringBuilder();
        boolean inClass = false;
        for (int i = 0; i < objects.length(); i++) {
            char c = objects.charAt(i);
            if (inClass) {
                if (c == ']') { re.append(']'); inClass = false; }
                else if (c == '-' || Character.isLetterOrDigit(c)) re.append(c);
                else re.append('\\').append(c);
                continue;
            }
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                case '[' -> {
                    if (objects.indexOf(']', i + 1) > i + 1) {
                        re.append('[');
                        inClass = true;
                        if (objects.charAt(i + 1) == '!' || objects.charAt(i + 1) == '^') { re.append('^'); i++; }
                    }
                    else re.append("\\[");
                }
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }
}
