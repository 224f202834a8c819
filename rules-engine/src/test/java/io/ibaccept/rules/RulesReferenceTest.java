package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.rules.checks.Checks;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The settings reference (ibaccept rules) is generated from the declarations and is itself a rules file. */
class RulesReferenceTest {
    final String reference = RulesReference.render();

    @Test
    void everySettingWithItsDescriptionTypeAndDefault() {
        List<String> lines = reference.lines().toList();
        for (Check c : Checks.all()) {
            int head = lines.indexOf(lines.stream().filter(l -> l.startsWith("# " + c.id() + ": ")).findFirst().orElseThrow());
            StringBuilder title = new StringBuilder(lines.get(head));
            for (int i = head + 1; lines.get(i).matches("# [^ ].*"); i++) title.append(lines.get(i).substring(1));
            assertThat(title.toString()).isEqualTo("# " + c.id() + ": " + RuleConfig.defaults().text(c.id(), "title")
                    + " (texts in " + Checks.Family.of(c.id()).file() + ")");
            for (Setting s : c.settings()) {
                int at = lines.indexOf(c.id() + "." + s.key() + "=" + s.defaultValue());
                assertThat(at).as(c.id() + "." + s.key()).isPositive();
                // the comment above the key, unwrapped, is the description and the type
                StringBuilder comment = new StringBuilder();
                for (int i = at - 1; lines.get(i).startsWith("#   "); i--) comment.insert(0, lines.get(i).substring(3));
                assertThat(comment.toString()).isEqualTo(" " + s.description() + " (" + s.type().values + ")");
            }
        }
        assertThat(reference).contains("""

                # link.width: Link width (texts in link.properties)
                #   run this check (true or false)
                link.width.enabled=true
                #   expected value for every active link, unless its class setting (.host, .isl) is given; auto = per link class
                #   (width: auto, 1X, 2X, 4X, 8X or 12X)
                link.width.expected=auto
                """);
        assertThat(reference.lines().filter(l -> l.startsWith("#"))).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(118));
    }

    @Test
    void theReferenceIsARulesFileThatChangesNothing() {
        RuleConfig copied = RuleConfig.withOverrides("reference", reference, Checks.all());
        assertThat(copied.overridden()).isEmpty();
        assertThat(copied.asProperties()).isEqualTo(RuleConfig.defaults().asProperties());
        long keys = reference.lines().filter(l -> !l.isEmpty() && !l.startsWith("#")).count();
        assertThat(keys).isEqualTo(Checks.all().stream().mapToInt(c -> 1 + c.settings().size()).sum());
    }
}
