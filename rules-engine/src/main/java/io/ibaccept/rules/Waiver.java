package io.ibaccept.rules;

import java.time.LocalDate;
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
        Pattern p = pattern();
        return p.matcher(object).matches() || p.matcher(Finding.hostOf(object)).matches();
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
