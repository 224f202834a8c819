package io.ibaccept.rules.checks.sm;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.SmConfig;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * partitions.conf syntax, read as opensm reads it. A rejected line ("PARSE ERROR") makes opensm 3.3 discard the whole
 * file and run the default partition only (every port a full member of 0x7fff, no other partition): a FAIL. Skipped
 * flags and unknown membership words are WARN. The same errors in opensm.log are listed under this finding.
 */
public final class PartitionsSyntax implements Check {
    public String id() {
        return "partitions.syntax";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.PARTITIONS_CONF));
    }

    public void evaluate(Ctx c) {
        int files = 0;
        boolean bad = false;
        for (SmConfig s : SmFacts.configs(c).values()) {
            if (s.partitions() == null) continue;
            files++;
            List<SmConfig.SyntaxError> errors = s.partitions().errors();
            if (errors.isEmpty()) continue;
            bad = true;
            long rejected = errors.stream().filter(SmConfig.SyntaxError::rejected).count();
            List<Evidence> ev = new ArrayList<>();
            for (SmConfig.SyntaxError e : errors.stream().limit(20).toList())
                ev.add(Evidence.of((e.rejected() ? "rejected: " : "skipped: ") + e.message(), e.ref()));
            boolean confirmed = s.log() != null && s.log().events().stream().anyMatch(e -> e.kind().equals("partitions-ignored"));
            if (confirmed)
                s.log().events().stream().filter(e -> e.kind().equals("partitions-ignored")).findFirst()
                        .ifPresent(e -> ev.add(Evidence.of(s.host() + " opensm.log: " + e.message(), e.ref())));
            // the running opensm logged its sweeps but no rejection: this opensm (a newer release may accept more
            // syntax) read the file; our reading differs from its, which is worth a look, not a failed acceptance
            boolean acceptedByOpensm = !confirmed && s.log() != null
                    && s.log().events().stream().anyMatch(e -> e.kind().equals("subnet-up") || e.kind().equals("master"));
            String where = s.process() != null && !s.process().partitionsFile().isEmpty() ? s.process().partitionsFile() : s.partitions().file();
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("host", s.host());
            v.put("file", where);
            v.put("first", errors.get(0).ref().toString());
            Finding f = c.problem(rejected > 0 && !acceptedByOpensm ? Status.FAIL : Status.WARN, List.of(s.host()), ev, s.host() + ": " + where + " has "
                            + (rejected > 0 ? rejected + " line(s) opensm rejects" + (confirmed ? " (opensm.log: it runs the default partition only)"
                            : acceptedByOpensm ? " by opensm 3.3's rules, but the running opensm logged no rejection (a newer release may accept them)"
                            : ": opensm discards the file and runs the default partition only") : "")
                            + (rejected > 0 && errors.size() > rejected ? " and " : "")
                            + (errors.size() > rejected ? (errors.size() - rejected) + " item(s) it skips" : "") + "; first at " + errors.get(0).ref(),
                    rejected > 0 ? "rejected" : "skipped", v);
            c.covers(f, List.of(SmFacts.syntaxKey(s.host())));
        }
        if (!bad) c.pass(files + " partitions file(s) read without error", List.of(), List.of());
    }
}
