package io.ibaccept.collect;

/** A drill that must not start (fewer than two running SMs, a link that is not an ISL, ...): it changed nothing. */
public final class DrillRefused extends RuntimeException {
    DrillRefused(String why) {
        super(why);
    }
}
