package io.ibaccept.collect;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.sources.CollectOptions;
import io.ibaccept.dump.sources.Source;
import io.ibaccept.dump.sources.Sources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The commands 'ibaccept collect' runs, as the dump sources' descriptors ({@link io.ibaccept.dump.sources}) give them
 * for the collect options: fabric-wide ones once, on the fabric node; per-node ones on every node; the SM files on the
 * SM nodes.
 */
public final class CommandSet {
    private CommandSet() {}

    /** One command to run: see {@link Source.Collect}. */
    public record Spec(Cmd cmd, String script, Duration timeout, Set<Integer> okExits, Set<Integer> notHereExits) {
        /** A snippet that found nothing of its kind on the node (not an SM node, no partitions file): not recorded. */
        boolean notHere(ExecResult r) {
            return notHereExits.contains(r.exitCode()) && CommandResult.FAILED.equals(r.status());
        }
    }

    public static List<Spec> perNode(CollectOptions o) {
        return of(Source.Scope.NODE, o);
    }

    public static List<Spec> fabric(CollectOptions o) {
        return of(Source.Scope.FABRIC, o);
    }

    /** The SM node's files; the first one finds the running opensm (a node without one records nothing more). */
    public static List<Spec> smConfig(CollectOptions o) {
        return of(Source.Scope.SM_NODE, o);
    }

    private static List<Spec> of(Source.Scope scope, CollectOptions o) {
        List<Spec> out = new ArrayList<>();
        for (Source<?> s : Sources.all()) {
            if (s.scope() != scope || s.collectedBy() != Source.CollectedBy.COLLECT) continue;
            s.collect(o).ifPresent(c -> out.add(new Spec(s.cmd(), c.script(), c.timeout(), c.okExits(),
                    c.notHereExits())));
        }
        return out;
    }
}
