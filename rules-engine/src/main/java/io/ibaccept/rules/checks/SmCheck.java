package io.ibaccept.rules.checks;

import io.ibaccept.rules.Check;

/** A check about the subnet managers: the hosts its findings name are SM nodes. */
public interface SmCheck extends Check {
    @Override
    default Naming naming() {
        return Naming.SM_NODES;
    }
}
