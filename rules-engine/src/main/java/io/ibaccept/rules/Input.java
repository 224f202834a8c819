package io.ibaccept.rules;

import io.ibaccept.dump.Cmd;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One input a check needs: any one of the listed dump commands (e.g. iblinkinfo OR ibnetdiscover), or the perftest
 * results. A check with several inputs needs all of them.
 */
public record Input(List<Cmd> anyOf, boolean perftests) {
    public Input {
        anyOf = List.copyOf(anyOf);
    }

    public static Input of(Cmd... alternatives) {
        return new Input(List.of(alternatives), false);
    }

    /** The perftest client outputs under perftest/ (collected by 'ibaccept rdma'). */
    public static Input perftestResults() {
        return new Input(List.of(), true);
    }

    /** This input, or the perftest results as an alternative. */
    public Input orPerftests() {
        return new Input(anyOf, true);
    }

    public String describe() {
        List<String> names = new ArrayList<>(anyOf.stream().map(Cmd::fileName).toList());
        if (perftests) names.add("perftest results");
        return names.stream().collect(Collectors.joining(" or "));
    }
}
