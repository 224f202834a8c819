package io.ibaccept.rules;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rule definitions: the bundled {@code rules.properties} (titles, thresholds, probable causes, fix commands per
 * check id) overlaid with an optional user file. Keys are {@code <check>.<property>}; text values may use
 * {@code ${name}} placeholders filled per finding.
 */
public final class RuleConfig {
    private final Properties props;

    private RuleConfig(Properties props) {
        this.props = props;
    }

    /** Thrown for an unusable user rules file; the message names the file and, where known, the line. */
    public static final class BadRulesFile extends RuntimeException {
        public BadRulesFile(String message) {
            super(message, null, false, false);
        }
    }

    public static RuleConfig defaults() {
        Properties p = new Properties();
        try (InputStream in = RuleConfig.class.getResourceAsStream("rules.properties");
             Reader r = new java.io.InputStreamReader(in, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new RuleConfig(p);
    }

    /** Defaults overlaid by the user's file; every overridden key must exist in the defaults (catches typos). */
    public static RuleConfig withOverrides(Path file) {
        RuleConfig base = defaults();
        Properties user = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            user.load(r);
        } catch (IOException | IllegalArgumentException e) {
            throw new BadRulesFile(file + ": cannot read rules file: " + e.getMessage());
        }
        java.util.List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BadRulesFile(file + ": " + e.getMessage());
        }
        for (String key : user.stringPropertyNames()) {
            if (!base.props.containsKey(key) && !isEnableSwitch(base, key)) {
                int line = 0;
                for (int i = 0; i < lines.size(); i++) if (lines.get(i).trim().startsWith(key)) { line = i + 1; break; }
                throw new BadRulesFile(file + ":" + line + ": unknown rule setting '" + key + "'");
            }
            base.props.setProperty(key, user.getProperty(key));
        }
        RuleConfig cfg = new RuleConfig(base.props);
        for (String key : user.stringPropertyNames()) {
            String v = user.getProperty(key).trim();
            String dflt = RuleConfig.defaults().props.getProperty(key, "").trim();
            if (isNumber(dflt) && !isNumber(v) && !v.equalsIgnoreCase("auto") && !v.equalsIgnoreCase("unlimited"))
                throw new BadRulesFile(file + ": '" + key + "' must be a number, found '" + v + "'");
        }
        return cfg;
    }

    /** "<check>.enabled" is valid for every check the defaults define. */
    private static boolean isEnableSwitch(RuleConfig base, String key) {
        if (!key.endsWith(".enabled")) return false;
        String check = key.substring(0, key.length() - ".enabled".length());
        return base.props.containsKey(check + ".title");
    }

    private static boolean isNumber(String s) {
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
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
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("rule setting " + check + "." + key + " is not a number: '" + v + "'");
        }
    }

    private static final Pattern VAR = Pattern.compile("\\$\\{(\\w+)}");

    /** The text of check.key with ${name} placeholders replaced from vars (unknown names left as they are). */
    public String fill(String check, String key, Map<String, ?> vars) {
        String tpl = text(check, key);
        Matcher m = VAR.matcher(tpl);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            Object v = vars.get(m.group(1));
            m.appendReplacement(sb, Matcher.quoteReplacement(v == null ? m.group() : v.toString()));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    public Properties asProperties() {
        Properties copy = new Properties();
        copy.putAll(props);
        return copy;
    }
}
