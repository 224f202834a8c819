package io.ibaccept.rules;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What a rule sees: the data, its configuration, the fabric index, and where it puts its findings. */
public final class Ctx {
    public final ClusterData data;
    public final RuleConfig cfg;
    public final FabricIndex index;
    private final List<Finding> out = new ArrayList<>();
    private String check;

    Ctx(ClusterData data, RuleConfig cfg, FabricIndex index) {
        this.data = data;
        this.cfg = cfg;
        this.index = index;
    }

    void begin(String check) {
        this.check = check;
    }

    /** Findings so far (rules use it to tell whether they reported anything). */
    public List<Finding> findings() {
        return out;
    }

    public String check() {
        return check;
    }

    public double number(String key) {
        return cfg.number(check, key);
    }

    public String text(String key) {
        return cfg.text(check, key);
    }

    /** A WARN/FAIL finding with cause and fix from the rules file (keys cause[.variant] / fix[.variant]). */
    public void problem(Status status, List<String> objects, List<Evidence> evidence, String summary, String variant,
                        Map<String, ?> vars) {
        String suffix = variant == null || variant.isEmpty() ? "" : "." + variant;
        out.add(new Finding(check, cfg.text(check, "title"), status, objects, evidence, summary,
                cfg.fill(check, "cause" + suffix, vars), cfg.fill(check, "fix" + suffix, vars)));
    }

    public void pass(String summary, List<String> objects, List<Evidence> evidence) {
        out.add(new Finding(check, cfg.text(check, "title"), Status.PASS, objects, evidence, summary, "", ""));
    }

    /** The check could not run; the reason names the missing inputs (their own findings carry file and line). */
    public void skip(String reason) {
        out.add(new Finding(check, cfg.text(check, "title"), Status.SKIP, List.of(), List.of(), reason, "", ""));
    }

    void add(Finding f) {
        out.add(f);
    }

    /** "(see input findings: nodes/n1/ibstat.out:3 ...)" for the problems of a command, or "" if none. */
    public String inputs(String host, String command) {
        List<InputProblem> ps = data.problemsFor(host, command);
        if (ps.isEmpty()) return "";
        return " (" + ps.get(0).where() + ": " + ps.get(0).message() + (ps.size() > 1 ? "; +" + (ps.size() - 1) + " more" : "") + ")";
    }
}
