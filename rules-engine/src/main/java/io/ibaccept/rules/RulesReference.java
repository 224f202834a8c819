package io.ibaccept.rules;

import io.ibaccept.rules.checks.Checks;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference of every rule setting, generated from the checks' declarations ({@code ibaccept rules}): per check in
 * report order its title and the file of its texts, then each setting's description, type and default. It is written
 * as a rules file with every value at its default, so a user copies the lines to change.
 */
public final class RulesReference {
    private static final int WIDTH = 118;

    private RulesReference() {}

    public static String render() {
        return render(Checks.all(), RuleConfig.defaults());
    }

    static String render(List<Check> checks, RuleConfig rules) {
        StringBuilder out = new StringBuilder();
        comment(out, "", "ibaccept rule settings: every check in report order with its title and the file of its texts "
                + "(title, cause and fix per variant), then each of its settings: description, (type), and the key at its default. "
                + "Copy the lines to change into your own file and pass it with 'ibaccept analyze --rules FILE'; a text is "
                + "overridden the same way, by its key.");
        for (Check c : checks) {
            out.append('\n');
            comment(out, "", c.id() + ": " + rules.text(c.id(), "title") + " (texts in " + Checks.Family.of(c.id()).file() + ")");
            List<Setting> settings = new ArrayList<>();
            settings.add(RuleConfig.ENABLED);
            settings.addAll(c.settings());
            for (Setting s : settings) {
                comment(out, "  ", s.description() + " (" + s.type().values + ")");
                out.append(c.id()).append('.').append(s.key()).append('=').append(s.defaultValue()).append('\n');
            }
        }
        return out.toString();
    }

    /** text as '#' comment lines of at most WIDTH characters, broken between words. */
    private static void comment(StringBuilder out, String indent, String text) {
        StringBuilder line = new StringBuilder("#").append(indent);
        int empty = line.length();
        for (String word : text.split(" ")) {
            if (line.length() > empty && line.length() + 1 + word.length() > WIDTH) {
                out.append(line).append('\n');
                line.setLength(empty);
            }
            line.append(' ').append(word);
        }
        out.append(line).append('\n');
    }
}
