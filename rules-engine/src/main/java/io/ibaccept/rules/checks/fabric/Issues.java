package io.ibaccept.rules.checks.fabric;

import io.ibaccept.fabric.Issue;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Status;
import java.util.List;

/** Turns the fabric analyses' issues into findings: the issue kind picks the cause/fix variant in rules.properties. */
final class Issues {
    private Issues() {}

    static void report(Ctx c, List<Issue> issues) {
        for (Issue i : issues)
            c.problem(i.severe() ? Status.FAIL : Status.WARN, i.objects(),
                    i.facts().stream().map(f -> Evidence.of(f.text(), f.ref())).toList(), i.summary(), i.kind(), i.vars());
    }
}
