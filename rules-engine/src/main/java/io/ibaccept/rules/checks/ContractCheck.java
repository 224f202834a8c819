package io.ibaccept.rules.checks;

import io.ibaccept.contract.Contract;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Input;
import java.util.List;

/**
 * A check of what only the acceptance contract declares: it reads what the dump has (no input of its own is required)
 * and is skipped, saying what is inferred instead, when no contract was given. Its findings explain nothing else: the
 * fabric and host checks judge what is there.
 */
abstract class ContractCheck implements Check {
    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return null;
    }

    public List<Input> inputs() {
        return List.of();
    }

    /** What is taken instead of a declaration, for the SKIP without a contract. */
    abstract String inferredInstead();

    abstract void evaluate(Ctx c, Contract k);

    public final void evaluate(Ctx c) {
        Contract k = c.contract().orElse(null);
        if (k == null) c.skip("no acceptance contract (analyze --contract FILE): " + inferredInstead());
        else evaluate(c, k);
    }
}
