package io.ibaccept.rules.checks.fabric;

import io.ibaccept.dump.Cmd;
import io.ibaccept.fabric.CablingPlan;
import io.ibaccept.fabric.PlanDiff;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Map;

/** The fabric against the customer's cabling plan (analyze --expect PLAN): missing, extra and miswired cables. */
public final class FabricPlan implements Check {
    public String id() {
        return "fabric.plan";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBNETDISCOVER, Cmd.IBLINKINFO));
    }

    public void evaluate(Ctx c) {
        if (c.plan().isEmpty()) {
            c.skip("no cabling plan given (analyze --expect PLAN)");
            return;
        }
        CablingPlan plan = c.plan().get();
        PlanDiff.Result r = c.facts.planDiff();
        for (CablingPlan.Problem p : r.planProblems())
            c.problem(Status.WARN, List.of(plan.source()), List.of(Evidence.of(p.message(), p.ref())),
                    "cabling plan: " + p.message() + " (" + p.ref() + ")", "plan_input", Map.of("where", p.ref().toString()));
        Issues.report(c, r.issues());
        if (r.issues().isEmpty())
            c.pass("all " + r.planned() + " planned cables are where " + plan.source() + " says", List.of(), List.of());
    }
}
