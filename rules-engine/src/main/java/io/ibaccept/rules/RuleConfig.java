package io.ibaccept.rules;

import io.ibaccept.rules.checks.Checks;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rule definitions: the bundled texts (title, probable causes and fix commands per check id, one file per check
 * family: {@link Checks.Family}) and the settings the checks declare ({@link Check#settings()}: type, default,
 * description), overlaid with an optional user file. Keys are {@code <check>.<property>}; text values may use
 * {@code ${name}} placeholders filled per finding ({@code ${name:q}} quotes the value for a shell). A setting's
 * default is declared once, by its check; user values are validated against the declared type when the file is loaded.
 */
public final class RuleConfig {
    /** The bundled text files: one per check family (how to collect each input is its source descriptor's hint). */
    static final List<String> BUNDLED = bundledFiles();

    private static List<String> bundledFiles() {
        List<String> files = new ArrayList<>();
        for (Checks.Family f : Checks.Family.values()) files.add(f.file());
        return List.copyOf(files);
    }

    private final Properties props;
    private final Map<String, Setting> settings;

    private RuleConfig(Properties props, Map<String, Setting> settings) {
        this.props = props;
        this.settings = settings;
    }

    /** Thrown for an unusable user rules file; the message names the file and, where known, the line. */
    public static final class BadRulesFile extends RuntimeException {
        public BadRulesFile(String message) {
            super(message, null, false, false);
        }
    }

    public static RuleConfig defaults() {
        return defaults(Checks.all());
    }

    /** Every check's own setting: whether it runs at all. */
    static final Setting ENABLED = Setting.of("enabled", Setting.Type.BOOLEAN, "true", "run this check");

    /** The bundled texts, and every setting the checks declare at its declared default. */
    static RuleConfig defaults(List<Check> checks) {
        Properties p = new Properties();
        for (String file : BUNDLED) {
            try (Reader r = new StringReader(bundled(file))) {
                p.load(r);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Map<String, Setting> settings = declared(checks);
        settings.forEach((key, s) -> p.setProperty(key, s.defaultValue()));
        return new RuleConfig(p, settings);
    }

    /** "<check>.<key>" -> declaration: each check's own settings, and whether it runs at all. */
    private static Map<String, Setting> declared(List<Check> checks) {
        Map<String, Setting> settings = new HashMap<>();
        for (Check c : checks) {
            settings.put(c.id() + "." + ENABLED.key(), ENABLED);
            for (Setting s : c.settings()) settings.put(c.id() + "." + s.key(), s);
        }
        return settings;
    }

    /** The content of a bundled text file. */
    static String bundled(String file) {
        try (InputStream in = RuleConfig.class.getResourceAsStream(file)) {
            if (in == null) throw new IllegalStateException("bundled rule texts " + file + " missing from the class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Text keys of a check's block: its title and a cause and a fix per variant (cause.VARIANT, fix.VARIANT). Every
     * other key is a setting, which its check declares.
     */
    static boolean isText(String check, String key) {
        return key.equals("title") || key.equals("cause") || key.equals("fix") || key.startsWith("cause.") || key.startsWith("fix.");
    }

    /**
     * What is wrong with a bundled text file (empty when nothing): a key that repeats a default its check declares,
     * a key that is neither a text nor a declared setting, a key of no check, a key given twice, a text outside its
     * family's file or out of the order of the checks' list.
     */
    static List<String> textProblems(String file, String content, List<Check> checks) {
        Map<String, Setting> declared = declared(checks);
        Map<String, Check> byId = new HashMap<>();
        for (Check c : checks) byId.put(c.id(), c);
        List<String> problems = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int last = -1;
        for (Map.Entry<String, Integer> e : keys(content)) {
            String key = e.getKey(), where = file + ":" + e.getValue() + ": ";
            if (!seen.add(key)) problems.add(where + key + " is given twice");
            Check c = owner(key, byId);
            if (c == null) {
                problems.add(where + key + " belongs to no check (no check id is a prefix of it)");
                continue;
            }
            String family = Checks.Family.of(c.id()).file();
            if (!family.equals(file)) problems.add(where + key + " belongs in " + family + ", the file of its check's family");
            int index = checks.indexOf(c);
            if (index < last)
                problems.add(where + key + " is out of order: the block of " + c.id() + " goes before that of " + checks.get(last).id()
                        + ", as in Checks.all()");
            last = Math.max(last, index);
            String property = key.substring(c.id().length() + 1);
            if (declared.containsKey(key))
                problems.add(where + key + " repeats a default: " + c.getClass().getSimpleName() + ".settings() declares it ("
                        + declared.get(key).defaultValue() + ")");
            else if (!isText(c.id(), property))
                problems.add(where + key + " is not a text (title, cause[.variant], fix[.variant]) and "
                        + c.getClass().getSimpleName() + ".settings() does not declare it");
        }
        return problems;
    }

    /** The check whose id is the longest prefix of key ("link.errors.window.title" is link.errors.window's). */
    private static Check owner(String key, Map<String, Check> byId) {
        for (int dot = key.lastIndexOf('.'); dot > 0; dot = key.lastIndexOf('.', dot - 1)) {
            Check c = byId.get(key.substring(0, dot));
            if (c != null) return c;
        }
        return null;
    }

    /** Defaults overlaid by the user's file; every key must exist in the defaults and every value fit its type. */
    public static RuleConfig withOverrides(Path file) {
        return withOverrides(file, Checks.all());
    }

    static RuleConfig withOverrides(Path file, List<Check> checks) {
        String content;
        try {
            content = io.ibaccept.safety.SideInput.read(file, 4L << 20, "rules file"); // every setting of every check is about 100 KiB
        } catch (IOException e) {
            throw new BadRulesFile(e.getMessage());
        }
        return withOverrides(file.toString(), content, checks);
    }

    static RuleConfig withOverrides(String name, String content, List<Check> checks) {
        RuleConfig base = defaults(checks);
        Properties user = new Properties();
        try {
            user.load(new StringReader(content));
        } catch (IOException | IllegalArgumentException e) {
            throw new BadRulesFile(name + ": cannot read rules file: " + e.getMessage());
        }
        Map<String, Integer> lines = keyLines(content);
        for (String key : user.stringPropertyNames()) {
            String where = name + ":" + lines.getOrDefault(key, 0) + ": ";
            Setting s = base.settings.get(key);
            if (!base.props.containsKey(key) && s == null) throw new BadRulesFile(where + "unknown rule setting '" + key + "'");
            String v = user.getProperty(key);
            if (s != null) {
                String err = s.type().validate(v);
                if (err != null) throw new BadRulesFile(where + "'" + key + "' " + err);
            }
            base.props.setProperty(key, v);
        }
        return base;
    }

    /**
     * A copy with these settings, declared elsewhere (the acceptance contract): each validated against its declared
     * type, an error naming where(key). They override the defaults and a rules file alike.
     */
    public RuleConfig with(Map<String, String> values, java.util.function.Function<String, String> where) {
        Properties p = new Properties();
        p.putAll(props);
        for (Map.Entry<String, String> e : values.entrySet()) {
            Setting s = settings.get(e.getKey());
            if (s == null) throw new IllegalStateException("no check declares the setting " + e.getKey());
            String err = s.type().validate(e.getValue());
            if (err != null) throw new BadRulesFile(where.apply(e.getKey()) + ": '" + e.getKey() + "' " + err);
            p.setProperty(e.getKey(), e.getValue());
        }
        return new RuleConfig(p, settings);
    }

    /** key -> line number (1-based) of the logical line that last sets it; continuation lines are skipped. */
    static Map<String, Integer> keyLines(String content) {
        Map<String, Integer> out = new HashMap<>();
        for (Map.Entry<String, Integer> e : keys(content)) out.put(e.getKey(), e.getValue());
        return out;
    }

    /** Every key with the line number (1-based) of its logical line, in file order. */
    static List<Map.Entry<String, Integer>> keys(String content) {
        List<Map.Entry<String, Integer>> out = new ArrayList<>();
        String[] lines = content.split("\r\n|\r|\n", -1);
        boolean continuation = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            boolean wasContinuation = continuation;
            int bs = 0;
            for (int j = line.length() - 1; j >= 0 && line.charAt(j) == '\\'; j--) bs++;
            String t = line.stripLeading();
            boolean comment = !wasContinuation && (t.startsWith("#") || t.startsWith("!"));
            continuation = !comment && bs % 2 == 1;
            if (wasContinuation || comment || t.isEmpty()) continue;
            StringBuilder key = new StringBuilder();
            for (int j = 0; j < t.length(); j++) {
                char ch = t.charAt(j);
                if (ch == '\\' && j + 1 < t.length()) {
                    key.append(t.charAt(++j));
                    continue;
                }
                if (ch == '=' || ch == ':' || Character.isWhitespace(ch)) break;
                key.append(ch);
            }
            out.add(Map.entry(key.toString(), i + 1));
        }
        return out;
    }

    public boolean enabled(String check) {
        return !"false".equalsIgnoreCase(props.getProperty(check + ".enabled", "true").trim());
    }

    /** A text of check (empty if its block lacks it), or the value of a setting it declares. */
    public String text(String check, String key) {
        if (!isText(check, key)) return value(check, key);
        String v = props.getProperty(check + "." + key);
        return v == null ? "" : v.trim();
    }

    /** The value of a setting: the user's, else the check's declared default. A setting no check declares is a bug. */
    public String value(String check, String key) {
        Setting s = settings.get(check + "." + key);
        if (s == null) throw new IllegalStateException("rule setting " + check + "." + key + " is read but not declared by check " + check);
        return props.getProperty(check + "." + key, s.defaultValue()).trim();
    }

    public double number(String check, String key) {
        String v = value(check, key);
        if (v.equalsIgnoreCase("unlimited")) return Double.POSITIVE_INFINITY;
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("rule setting " + check + "." + key + " is not a number: '" + v + "'");
        }
    }

    /** The setting a check declared for check.key, or null. */
    public Setting setting(String check, String key) {
        return settings.get(check + "." + key);
    }

    private static final Pattern VAR = Pattern.compile("\\$\\{(\\w+)(:q)?}");

    /**
     * The text of check.key with ${name} placeholders replaced from vars (unknown names left as they are);
     * ${name:q} inserts the value quoted for a POSIX shell by the project's one quoting place,
     * {@link io.ibaccept.safety.Shell#quote}; control characters become '?' first (a fix text is one line).
     */
    public String fill(String check, String key, Map<String, ?> vars) {
        String tpl = text(check, key);
        Matcher m = VAR.matcher(tpl);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            Object v = vars.get(m.group(1));
            String s = v == null ? m.group() : m.group(2) != null ? io.ibaccept.safety.Shell.quote(oneLine(v.toString())) : oneLine(v.toString());
            m.appendReplacement(sb, Matcher.quoteReplacement(s));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static String oneLine(String v) {
        StringBuilder b = new StringBuilder(v.length());
        for (int i = 0; i < v.length(); i++) b.append(Character.isISOControl(v.charAt(i)) ? '?' : v.charAt(i));
        return b.toString();
    }

    public Properties asProperties() {
        Properties copy = new Properties();
        copy.putAll(props);
        return copy;
    }

    /** Keys whose value differs from the bundled default (for the report's cover page). */
    public Map<String, String> overridden() {
        RuleConfig d = defaults();
        Map<String, String> m = new java.util.TreeMap<>();
        for (String k : props.stringPropertyNames())
            if (!props.getProperty(k).trim().equals(d.props.getProperty(k, "").trim())) m.put(k, props.getProperty(k).trim());
        return m;
    }

}
