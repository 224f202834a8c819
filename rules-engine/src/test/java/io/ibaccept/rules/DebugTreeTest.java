package io.ibaccept.rules;

import org.junit.jupiter.api.Test;

class DebugTreeTest {
    @Test
    void print() {
        Report r = new RulesEngine(RuleConfig.defaults()).run(io.ibaccept.dump.DumpLoader.load(TestDump.DEMO));
        for (Finding f : r.worstFirst()) {
            if (f.status() == Status.PASS) continue;
            System.out.println((f.isConsequence() ? "    " : "") + f.id() + " <" + f.parent() + "> " + f.status() + " " + f.objects() + " | " + f.summary().substring(0, Math.min(120, f.summary().length())));
            if (!f.isConsequence()) for (Evidence e : f.evidence()) System.out.println("        ev: " + e.text() + " @" + e.where());
        }
    }
}
