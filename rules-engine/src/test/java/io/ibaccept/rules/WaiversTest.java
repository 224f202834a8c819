package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WaiversTest {
    static final LocalDate TODAY = LocalDate.of(2026, 12, 2);
    @TempDir Path tmp;

    static Finding f(String check, Status s, String... objects) {
        return new Finding(check, check + " title", s, List.of(objects), List.of(Evidence.of("seen", "nodes/x/y.out:3")),
                "summary", "cause", "fix");
    }

    Waivers load(String text) throws Exception {
        Path p = tmp.resolve("waivers.csv");
        Files.writeString(p, text);
        return Waivers.load(p);
    }

    @Test
    void matchingWaiverTurnsFailIntoWaivedAndVerdictAcceptedWithWaivers() throws Exception {
        Waivers w = load("""
                # check,objects,reason,owner,expires
                check,objects,reason,owner,expires
                memlock,node0[1-2],"slurmd fix scheduled, ticket 42",J. Doe,2026-12-31
                """);
        Report r = new Report(null, List.of(f("memlock", Status.FAIL, "node01", "node02"), f("pcie", Status.PASS, "node01"),
                f("link.width", Status.WARN, "node03 HCA-1 port 1")));
        Report out = w.apply(r, TODAY);
        assertThat(out.findings()).extracting(Finding::status).containsExactly(Status.WAIVED, Status.PASS, Status.WARN);
        Waiver used = out.waiverFor(out.findings().get(0));
        assertThat(used.reason()).isEqualTo("slurmd fix scheduled, ticket 42");
        assertThat(used.where()).isEqualTo("waivers.csv:3");
        assertThat(out.waivers()).singleElement().satisfies(u -> assertThat(u.findings()).isEqualTo(1));
        assertThat(out.verdict()).isEqualTo(Verdict.ACCEPTED_WITH_WAIVERS);
        assertThat(r.verdict()).isEqualTo(Verdict.REJECTED);
    }

    @Test
    void partialMatchSplitsTheFindingAndOtherChecksAreUntouched() throws Exception {
        Waivers w = load("memlock,node01,known,ops,2027-01-01\nlink.width,node03*,spare cable on order,ops,2027-01-01\n");
        Report out = w.apply(new Report(null, List.of(f("memlock", Status.FAIL, "node01", "node02"),
                f("pcie", Status.FAIL, "node01"), f("link.width", Status.WARN, "node03 HCA-1 port 1"))), TODAY);
        assertThat(out.findings()).extracting(Finding::status, Finding::objects).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Status.FAIL, List.of("node02")),
                org.assertj.core.groups.Tuple.tuple(Status.WAIVED, List.of("node01")),
                org.assertj.core.groups.Tuple.tuple(Status.FAIL, List.of("node01")),
                org.assertj.core.groups.Tuple.tuple(Status.WAIVED, List.of("node03 HCA-1 port 1")));
        assertThat(out.verdict()).isEqualTo(Verdict.REJECTED);
    }

    @Test
    void globsMatchObjectOrItsHost() {
        Waiver w = new Waiver("link.width", "node0?", "r", "o", TODAY, "w:1");
        assertThat(w.matchesObject("node03 HCA-1 port 1")).isTrue();
        assertThat(w.matchesObject("node13 HCA-1 port 1")).isFalse();
        assertThat(new Waiver("x", "*port 1", "r", "o", TODAY, "").matchesObject("node03 HCA-1 port 1")).isTrue();
        assertThat(new Waiver("x", "node[1-3]", "r", "o", TODAY, "").matchesObject("node2")).isTrue();
        assertThat(new Waiver("x", "node[1-3]", "r", "o", TODAY, "").matchesObject("node4")).isFalse();
        assertThat(new Waiver("x", "a.b(c)+", "r", "o", TODAY, "").matchesObject("a.b(c)+")).isTrue();
        assertThat(new Waiver("x", "a.b", "r", "o", TODAY, "").matchesObject("axb")).isFalse();
        assertThat(new Waiver("x", "node[!1]", "r", "o", TODAY, "").matchesObject("node2")).isTrue();
        assertThat(new Waiver("x", "node[!1]", "r", "o", TODAY, "").matchesObject("node1")).isFalse();
        // findings without objects are waived only by "*"
        assertThat(new Waiver("sm.count", "*", "r", "o", TODAY, "").covers(f("sm.count", Status.FAIL))).isTrue();
        assertThat(new Waiver("sm.count", "node*", "r", "o", TODAY, "").covers(f("sm.count", Status.FAIL))).isFalse();
    }

    @Test
    void expiredWaiverNoLongerAppliesAndWarns() throws Exception {
        Waivers w = load("memlock,*,old,ops,2026-12-01\nmemlock,node09,today is the last day,ops,2026-12-02\n");
        Report out = w.apply(new Report(null, List.of(f("memlock", Status.FAIL, "node01"), f("memlock", Status.FAIL, "node09"))), TODAY);
        assertThat(out.findings()).extracting(Finding::status).containsExactly(Status.FAIL, Status.WAIVED, Status.WARN);
        Finding warn = out.findings().get(2);
        assertThat(warn.check()).isEqualTo(Waivers.CHECK);
        assertThat(warn.summary()).contains("memlock").contains("expired on 2026-12-01").contains("no longer applies");
        assertThat(warn.evidence().get(0).where()).isEqualTo("waivers.csv:1");
        assertThat(out.waivers()).extracting(WaiverUse::expired).containsExactly(true, false);
        assertThat(out.verdict()).isEqualTo(Verdict.REJECTED);
    }

    @Test
    void errorsAndPassesAreNeverWaived() throws Exception {
        Waivers w = load("input,*,x,ops,2030-01-01\n");
        Report out = w.apply(new Report(null, List.of(f("input", Status.ERROR, "node01"))), TODAY);
        assertThat(out.findings()).extracting(Finding::status).containsExactly(Status.ERROR);
        assertThat(out.verdict()).isEqualTo(Verdict.INCOMPLETE);
    }

    @Test
    void badLinesNameFileAndLine() {
        String p = tmp.resolve("waivers.csv").toString();
        assertThatThrownBy(() -> load("# ok\nmemlock,node01,reason,ops\n")).isInstanceOf(Waivers.BadWaiversFile.class)
                .hasMessage(p + ":2: expected 5 fields (check,objects,reason,owner,expires YYYY-MM-DD), found 4");
        assertThatThrownBy(() -> load("memlock,node01,reason,ops,31.12.2026\n")).hasMessageStartingWith(p + ":1: expiry date must be YYYY-MM-DD");
        assertThatThrownBy(() -> load("\nmemlok,node01,reason,ops,2026-12-31\n")).hasMessageStartingWith(p + ":2: unknown check 'memlok'");
        assertThatThrownBy(() -> load("memlock,node01,,ops,2026-12-31\n")).hasMessage(p + ":1: a waiver needs a reason");
        assertThatThrownBy(() -> load("memlock,node01,\"unterminated,ops,2026-12-31\n")).hasMessage(p + ":1: unterminated quote");
        assertThatThrownBy(() -> load("memlock,node[z-a],r,ops,2026-12-31\n")).hasMessageStartingWith(p + ":1: object pattern 'node[z-a]' is not a usable glob");
        assertThatThrownBy(() -> Waivers.load(tmp.resolve("missing.csv"))).isInstanceOf(Waivers.BadWaiversFile.class)
                .hasMessageStartingWith(tmp.resolve("missing.csv") + ": cannot read");
    }

    /** Globs match in linear steps per star: many stars against a long valid name answer at once, and alike the regex. */
    @Test
    void manyStarsDoNotBacktrackExponentially() {
        String name = "a".repeat(200);
        Waiver w = new Waiver("memlock", "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", "r", "o", java.time.LocalDate.MAX, "w.csv:1");
        assertThat(w.matchesObject(name)).isFalse();
        assertThat(w.matchesObject(name + "b")).isTrue();
        for (String[] c : new String[][] {{"node0[1-3]", "node02", "true"}, {"node0[!1-3]", "node02", "false"}, {"node?? HCA-1*", "node07 HCA-1 port 1", "true"},
                {"leaf0[1-2] port *", "leaf03 port 3", "false"}, {"[x", "[x", "true"}, {"*", "", "true"}}) {
            Waiver g = new Waiver("x", c[0], "r", "o", java.time.LocalDate.MAX, "w.csv:1");
            assertThat(new Waiver.Glob(c[0]).matches(c[1])).as(c[0] + " ~ " + c[1]).isEqualTo(Boolean.parseBoolean(c[2]))
                    .isEqualTo(g.pattern().matcher(c[1]).matches());
        }
    }
}
