package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.HostConfig;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Perftest;
import io.ibaccept.model.RdmaRuntime;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.Parser;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one list of dump sources, and how the model records are built from what they parsed. Adding a tool output: its
 * descriptor (a small class in this package), one line in {@link #ALL}, its argument where its record is built below,
 * and its key in {@link Cmd}.
 */
public final class Sources {
    private Sources() {}

    /** Every source; within a scope in the order 'ibaccept collect' runs them (the SM files: the process first, it finds the others). */
    private static final List<Source<?>> ALL = List.of(
            // fabric-wide, on the fabric node
            Ibnetdiscover.SOURCE, Iblinkinfo.SOURCE, Ibqueryerrors.SOURCE, Perfquery.SOURCE, SaqueryS.SOURCE, SaqueryG.SOURCE,
            Sminfo.SOURCE, DumpFts.SOURCE, SmpquerySl2vl.SOURCE, IbdiagnetLog.SOURCE, IbdiagnetDbCsv.SOURCE, IbdiagnetPm.SOURCE, IbdiagnetIbnetdiscover.SOURCE,
            IbdiagnetSm.SOURCE, IbdiagnetPkey.SOURCE,
            IbdiagnetCables.SOURCE, IbdiagnetNetDump.SOURCE, IbdiagnetNetDumpExt.SOURCE,
            CountersStart.SOURCE, CountersEnd.SOURCE, SmFailoverDrill.SOURCE, IslDrillRecord.SOURCE, ResilienceRecord.SOURCE,
            // on every node
            Ibstat.SOURCE, SmpqueryPortinfo.SOURCE, SmpqueryPkeys.SOURCE, SmpqueryPkeysPeer.SOURCE, SmpqueryPortinfoPeer.SOURCE,
            SmpqueryNodeinfo.SOURCE, UlimitL.SOURCE, OfedInfo.SOURCE, IpDAddr.SOURCE, ChronycTracking.SOURCE, MlxconfigQ.SOURCE,
            Mlxlink.SOURCE, MlxlinkPcie.SOURCE, EthtoolS.SOURCE, NativeProbe.SOURCE, UlimitLStep.SOURCE, UcxInfoV.SOURCE,
            UcxInfoD.SOURCE, OmpiInfo.SOURCE, HcaNuma.SOURCE, NvidiaSmiTopo.SOURCE, Lsmod.SOURCE, Ibstatus.SOURCE, Uptime.SOURCE,
            // on the SM nodes
            OpensmProcess.SOURCE, OpensmConf.SOURCE, PartitionsConf.SOURCE, OpensmLog.SOURCE, OpensmRoutingFiles.SOURCE,
            // on pairs of nodes
            PerftestPair.SOURCE);

    private static final Map<Cmd, Source<?>> BY_KEY = new EnumMap<>(Cmd.class);

    static {
        for (Source<?> s : ALL)
            if (s.cmd() != null && BY_KEY.put(s.cmd(), s) != null) throw new IllegalStateException(s.cmd() + " has two sources");
    }

    /** The perftest pair outputs ('ibaccept rdma'); their client side is the result. */
    public static final Source<Perftest> PERFTEST = PerftestPair.SOURCE;

    /** The parser of a perftest run's server side. */
    public static final Parser<Perftest> PERFTEST_SERVER = PerftestPair.SERVER;

    public static List<Source<?>> all() {
        return ALL;
    }

    /** The source a key stands for. */
    public static Source<?> of(Cmd cmd) {
        Source<?> s = BY_KEY.get(cmd);
        if (s == null) throw new IllegalStateException(cmd + " has no source in Sources.ALL");
        return s;
    }

    /** The keyed source stored under this file name, if any (perftest runs are not named one by one). */
    public static Optional<Cmd> named(String fileName) {
        return BY_KEY.entrySet().stream().filter(e -> e.getValue().fileName().equals(fileName)).map(Map.Entry::getKey).findFirst();
    }

    /** The fabric's topology as ibnetdiscover found it, once parsed; null before or without it. */
    public static Topology topology(Results r) {
        return r.get(Ibnetdiscover.SOURCE);
    }

    /** The fabric-wide record: the fabric sources' results, and the SM nodes' configuration by host. */
    public static FabricData fabric(Results r, Map<String, SmConfig> smConfigs) {
        return new FabricData(r.get(Ibnetdiscover.SOURCE), r.get(Iblinkinfo.SOURCE), r.get(Sminfo.SOURCE), r.get(SaqueryS.SOURCE),
                r.get(Perfquery.SOURCE), r.get(Ibqueryerrors.SOURCE), r.get(IbdiagnetLog.SOURCE), r.get(IbdiagnetDbCsv.SOURCE),
                r.get(IbdiagnetPm.SOURCE), r.get(IbdiagnetIbnetdiscover.SOURCE), r.get(CountersStart.SOURCE),
                r.get(CountersEnd.SOURCE), r.get(SaqueryG.SOURCE), smConfigs, r.get(SmFailoverDrill.SOURCE),
                r.get(IslDrillRecord.SOURCE), r.get(DumpFts.SOURCE), r.get(SmpquerySl2vl.SOURCE), r.get(IbdiagnetSm.SOURCE),
                r.get(IbdiagnetPkey.SOURCE), r.get(IbdiagnetCables.SOURCE), r.get(IbdiagnetNetDump.SOURCE),
                r.get(IbdiagnetNetDumpExt.SOURCE), r.get(ResilienceRecord.SOURCE));
    }

    /** One host's record from its node sources' results. */
    public static HostData host(String host, Results r) {
        return new HostData(host, r.get(Ibstat.SOURCE), r.get(SmpqueryPortinfo.SOURCE), r.get(SmpqueryPkeys.SOURCE),
                r.get(SmpqueryPkeysPeer.SOURCE), r.get(SmpqueryNodeinfo.SOURCE), r.get(UlimitL.SOURCE), r.get(OfedInfo.SOURCE),
                r.get(Mlxlink.SOURCE), r.get(MlxlinkPcie.SOURCE), r.get(EthtoolS.SOURCE), r.get(NativeProbe.SOURCE),
                r.get(Ibstatus.SOURCE), r.get(Uptime.SOURCE), r.get(SmpqueryPortinfoPeer.SOURCE),
                RdmaRuntime.of(r.get(UlimitLStep.SOURCE), r.get(UcxInfoV.SOURCE), r.get(UcxInfoD.SOURCE), r.get(OmpiInfo.SOURCE),
                        r.get(HcaNuma.SOURCE), r.get(NvidiaSmiTopo.SOURCE), r.get(Lsmod.SOURCE)),
                hostConfig(r));
    }

    // null when none of its inputs is in the dump
    private static HostConfig hostConfig(Results r) {
        var links = r.get(IpDAddr.SOURCE);
        var time = r.get(ChronycTracking.SOURCE);
        var mlxconfig = r.get(MlxconfigQ.SOURCE);
        return links == null && time == null && mlxconfig == null ? null : new HostConfig(links, time, mlxconfig);
    }

    /** One SM node's configuration from its SM-node sources' results; null when it has none of them. */
    public static SmConfig smConfig(String host, Results r) {
        if (r.isEmpty()) return null;
        return new SmConfig(host, r.get(OpensmProcess.SOURCE), r.get(OpensmConf.SOURCE), r.get(PartitionsConf.SOURCE),
                r.get(OpensmLog.SOURCE), r.get(OpensmRoutingFiles.SOURCE));
    }
}
