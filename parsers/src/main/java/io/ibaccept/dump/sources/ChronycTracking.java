package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostConfig;
import io.ibaccept.parse.HostConfigParsers;
import java.time.Duration;

/**
 * chronyc tracking: time synchronisation state and offset; on a host without chrony where ptp4l runs, linuxptp's
 * 'pmc GET TIME_STATUS_NP' instead (the parser tells them apart by content).
 */
final class ChronycTracking {
    private ChronycTracking() {}

    // an idle pmc answers nothing: only where ptp4l runs
    static final String SCRIPT = "if command -v chronyc >/dev/null; then chronyc tracking; "
            + "elif command -v pmc >/dev/null && pgrep -x ptp4l >/dev/null; then pmc -u -b 0 'GET TIME_STATUS_NP'; "
            + "else echo 'chronyc: command not found (and no ptp4l running)' >&2; exit 127; fi";

    static final Source<HostConfig.TimeSync> SOURCE = Source.node(Cmd.CHRONY, "chronyc-tracking", HostConfigParsers::timeSync)
            .collect(SCRIPT, Duration.ofSeconds(30))
            .readsHostOs()
            .bestEffort()
            .recollectHint("; needs chrony on the nodes, or linuxptp with ptp4l running (a ticket's 'chronyc tracking' or"
                    + " 'pmc -u -b 0 \"GET TIME_STATUS_NP\"' output saved as nodes/HOST/chronyc-tracking.out works too)")
            .inHostConfig(HostConfig::time);
}
