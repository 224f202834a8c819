package io.ibaccept.rules;

import io.ibaccept.rules.checks.Checks;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rule definitions: the bundled {@code rules.properties} (titles, thresholds, probable causes, fix commands per
 * check id) overlaid with an optional user file. Keys are {@code <check>.<property>}; text values may use
 * {@code ${name}} placeholders filled per finding ({@code ${name:q}} quotes the value for a shell). Thresholds are
 * typed by the {@link Setting}s the checks declare and validated when a file is loaded.
 */
public final class RuleConfig {
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

    /** The bundled rules.properties; settings a check declares but the file does not list get the declared default. */
    public static RuleConfig defaults(List<Check> checks) {
        Properties p = new Properties();
        try (InputStream in = RuleConfig.class.getResourceAsStream("rules.properties");
             Reader r = new java.io.InputStreamReader(in, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Setting> settings = new HashMap<>();
        for (Check c : checks) {
            settings.put(c.id() + ".enabled", Setting.of("enabled", Setting.Type.BOOLEAN, "true", "run this check"));
            for (Setting s : c.settings()) {
                settings.put(c.id() + "." + s.key(), s);
                if (!p.containsKey(c.id() + "." + s.key())) p.setProperty(c.id() + "." + s.key(), s.defaultValue());
            }
        }
        return new RuleConfig(p, settings);
    }

    /** Defaults overlaid by the user's file; every key must exist in the defaults and every value fit its type. */
    public static RuleConfig withOverrides(Path file) {
        return withOverrides(file, Checks.all());
    }

    public static RuleConfig withOverrides(Path file, List<Check> checks) {
        String content;
        try {
            content = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BadRulesFile(file + ": cannot read rules file: " + e.getMessage());
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

    /** Problems of the bundled values themselves (a test keeps this empty). */
    List<String> validateAll() {
        List<String> bad = new java.util.ArrayList<>();
        settings.forEach((k, s) -> {
            String err = s.type().validate(props.getProperty(k, s.defaultValue()));
            if (err != null) bad.add(k + " " + err);
        });
        return bad;
    }

    /** key -> line number (1-based) of the logical line that last sets it; continuation lines are skipped. */
    static Map<String, Integer> keyLines(String content) {
        Map<String, Integer> out = new HashMap<>();
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
            out.put(key.toString(), i + 1);
        }
        return out;
    }

    public boolean enabled(String check) {
        return !"false".equalsIgnoreCase(props.getProperty(check + ".enabled", "true").trim());
    }

    public String text(String check, String key) {
        String v = props.getProperty(check + "." + key);
        return v == null ? "" : v.trim();
    }

    public double number(String check, String key) {
        String v = text(check, key);
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
