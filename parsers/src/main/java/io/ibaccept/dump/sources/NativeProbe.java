package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.KeyValues;
import io.ibaccept.model.HostData;
import io.ibaccept.safety.Shell;
import java.time.Duration;
import java.util.Map;

/** native-probe: ibaccept's own JNA probe run on the node (collect --probe-cmd): memlock rlimit, libibumad CAs and port state. */
final class NativeProbe {
    private NativeProbe() {}

    // the operator's own command (e.g. "/opt/ibaccept/bin/ibaccept probe"): words, never shell syntax
    static final Source<Map<String, String>> SOURCE = Source.node(Cmd.NATIVE_PROBE, "native-probe", (t, issues) -> KeyValues.parse(t))
            .collect(o -> o.probeCommand() == null ? null : new Source.Collect(Shell.words(o.probeCommand()), Duration.ofSeconds(60)))
            .optional()
            .hint("collect with --probe-cmd 'ibaccept probe' where ibaccept is installed on the nodes")
            .inHost(HostData::nativeProbe);
}
