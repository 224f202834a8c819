package io.ibaccept.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fabric-wide results, collected once from the fabric node. A field is null when its input was unusable.
 * diagPm is ibdiagnet2.pm, diagTopology ibdiagnet2.ibnetdiscover (both optional); mcGroups is saquery -g; lfts is
 * dump_fts; sl2vl smpquery sl2vl of the switch-to-switch ports; diagSms ibdiagnet2.sm, diagPkeys ibdiagnet2.pkey (both
 * optional). diagCables, diagNetDump, diagNetDumpExt: ibdiagnet2.cables, ibdiagnet2.net_dump and
 * ibdiagnet2.net_dump_ext (the physical layer: modules, FEC, BER), null when not collected.
 */
public record FabricData(Topology topology, List<LinkInfo> links, List<SmInfo> sms, List<SmPort> smPorts,
                         List<PortCounters> perfCounters, List<PortCounters> errorCounters, Ibdiagnet.Log diagLog,
                         Ibdiagnet.Db diagDb, List<PortCounters> diagPm, Topology diagTopology,
                         CounterSample countersStart, CounterSample countersEnd, List<McGroup> mcGroups,
                         Map<String, SmConfig> smConfigs, SmDrill smDrill, IslDrill islDrill, ForwardingTables lfts,
                         SlToVlTables sl2vl, List<Ibdiagnet.Sm> diagSms, List<Ibdiagnet.PkeyGroup> diagPkeys,
                         List<CableModule> diagCables, List<DiagPort> diagNetDump, List<DiagPort> diagNetDumpExt,
                         Resilience resilience) {

    // SM configuration: per SM host, empty when no SM node's files were collected
    public FabricData {
        smConfigs = smConfigs == null ? Map.of() : java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(smConfigs));
    }

    /** Fabric data without ibdiagnet2.sm, ibdiagnet2.pkey, ibdiagnet's physical-layer files and an N-1 run on the twin. */
    public FabricData(Topology topology, List<LinkInfo> links, List<SmInfo> sms, List<SmPort> smPorts,
                      List<PortCounters> perfCounters, List<PortCounters> errorCounters, Ibdiagnet.Log diagLog,
                      Ibdiagnet.Db diagDb, List<PortCounters> diagPm, Topology diagTopology,
                      CounterSample countersStart, CounterSample countersEnd, List<McGroup> mcGroups,
                      Map<String, SmConfig> smConfigs, SmDrill smDrill, IslDrill islDrill, ForwardingTables lfts,
                      SlToVlTables sl2vl) {
        this(topology, links, sms, smPorts, perfCounters, errorCounters, diagLog, diagDb, diagPm, diagTopology,
                countersStart, countersEnd, mcGroups, smConfigs, smDrill, islDrill, lfts, sl2vl, null, null, null, null, null, null);
    }

    /** Fabric data without the SM nodes' configuration files (dumps written before the SM files were collected). */
    public FabricData(Topology topology, List<LinkInfo> links, List<SmInfo> sms, List<SmPort> smPorts,
                      List<PortCounters> perfCounters, List<PortCounters> errorCounters, Ibdiagnet.Log diagLog,
                      Ibdiagnet.Db diagDb, List<PortCounters> diagPm, Topology diagTopology,
                      CounterSample countersStart, CounterSample countersEnd, List<McGroup> mcGroups, Map<String, SmConfig> smConfigs) {
        this(topology, links, sms, smPorts, perfCounters, errorCounters, diagLog, diagDb, diagPm, diagTopology,
                countersStart, countersEnd, mcGroups, smConfigs, null, null, null, null);
    }

    public FabricData(Topology topology, List<LinkInfo> links, List<SmInfo> sms, List<SmPort> smPorts,
                      List<PortCounters> perfCounters, List<PortCounters> errorCounters, Ibdiagnet.Log diagLog,
                      Ibdiagnet.Db diagDb, List<PortCounters> diagPm, Topology diagTopology,
                      CounterSample countersStart, CounterSample countersEnd, List<McGroup> mcGroups) {
        this(topology, links, sms, smPorts, perfCounters, errorCounters, diagLog, diagDb, diagPm, diagTopology,
                countersStart, countersEnd, mcGroups, null);
    }

    /** Fabric data without the multicast groups of saquery -g (dumps written before it was collected). */
    public FabricData(Topology topology, List<LinkInfo> links, List<SmInfo> sms, List<SmPort> smPorts,
                      List<PortCounters> perfCounters, List<PortCounters> errorCounters, Ibdiagnet.Log diagLog,
                      Ibdiagnet.Db diagDb, List<PortCounters> diagPm, Topology diagTopology,
                      CounterSample countersStart, CounterSample countersEnd) {
        this(topology, links, sms, smPorts, perfCounters, errorCounters, diagLog, diagDb, diagPm, diagTopology,
                countersStart, countersEnd, null);
    }

    /** Fabric data without the optional ibdiagnet2.pm / ibdiagnet topology and counter-window samples. */
    public FabricData(Topology topology, List<LinkInfo> links, List<SmInfo> sms, List<SmPort> smPorts,
                      List<PortCounters> perfCounters, List<PortCounters> errorCounters, Ibdiagnet.Log diagLog,
                      Ibdiagnet.Db diagDb) {
        this(topology, links, sms, smPorts, perfCounters, errorCounters, diagLog, diagDb, null, null, null, null);
    }


    /** The ibnetdiscover topology, else ibdiagnet's copy of it (ibdiagnet2.ibnetdiscover), else null. */
    public Topology anyTopology() {
        return topology != null ? topology : diagTopology;
    }

    /** ibdiagnet's port rows with FEC: net_dump_ext (switch and CA ports), else net_dump (switch ports); empty when neither. */
    public List<DiagPort> diagPorts() {
        if (diagNetDumpExt != null && !diagNetDumpExt.isEmpty()) return diagNetDumpExt;
        return diagNetDump != null ? diagNetDump : List.of();
    }

    /**
     * ibdiagnet's port counters, one record per (node GUID, port): PM_INFO of ibdiagnet2.db_csv, else ibdiagnet2.pm.
     * Empty when neither was collected.
     */
    public List<PortCounters> ibdiagnetCounters() {
        if (diagDb != null && !diagDb.pmInfo().isEmpty()) return diagDb.pmInfo();
        return diagPm != null ? diagPm : List.of();
    }

    /** PM_DELTA of ibdiagnet2.db_csv (the change over --pm_pause_time), empty when absent. */
    public List<PortCounters> ibdiagnetDeltas() {
        return diagDb != null ? diagDb.pmDelta() : List.of();
    }

    /**
     * Every port counter record of every source, merged per (node GUID, port) where the GUID is known (ibqueryerrors,
     * ibdiagnet; a CA's port GUID from ibqueryerrors is resolved to its node through ibdiagnet or the topology);
     * records without a GUID (perfquery: LID only) are listed as they are. Later sources fill counters the earlier
     * ones lack: ibdiagnet PM_INFO, then ibdiagnet2.pm, then ibqueryerrors, then perfquery.
     */
    public List<PortCounters> countersByPort() {
        Map<Long, Long> nodeOfPort = new java.util.HashMap<>();
        if (anyTopology() != null)
            for (Topology.Node n : anyTopology().nodes())
                for (Topology.Port p : n.ports()) if (p.portGuid() != 0) nodeOfPort.put(p.portGuid(), n.guid());
        for (PortCounters pc : ibdiagnetCounters()) if (pc.portGuid() != 0) nodeOfPort.put(pc.portGuid(), pc.nodeGuid());
        Map<PortCounters.Key, PortCounters> merged = new LinkedHashMap<>();
        List<PortCounters> noGuid = new ArrayList<>();
        List<List<PortCounters>> sources = new ArrayList<>();
        sources.add(ibdiagnetCounters());
        if (diagDb != null && !diagDb.pmInfo().isEmpty() && diagPm != null) sources.add(diagPm);
        if (errorCounters != null) sources.add(errorCounters);
        if (perfCounters != null) sources.add(perfCounters);
        for (List<PortCounters> src : sources)
            for (PortCounters pc0 : src) {
                PortCounters pc = pc0.nodeGuid() == 0 && nodeOfPort.containsKey(pc0.portGuid())
                        ? pc0.withNodeGuid(nodeOfPort.get(pc0.portGuid())) : pc0;
                if (pc.port() < 0) continue;
                if (pc.nodeGuid() == 0) {
                    noGuid.add(pc);
                    continue;
                }
                merged.merge(pc.key(), pc, (a, b) -> {
                    Map<String, Long> c = new LinkedHashMap<>(b.counters());
                    c.putAll(a.counters());
                    return new PortCounters(a.nodeGuid(), a.nodeName().isEmpty() ? b.nodeName() : a.nodeName(),
                            a.lid() >= 0 ? a.lid() : b.lid(), a.port(), c, a.ref(), a.portGuid() != 0 ? a.portGuid() : b.portGuid());
                });
            }
        List<PortCounters> out = new ArrayList<>(merged.values());
        out.addAll(noGuid);
        return out;
    }

    /**
     * The SMs as sminfo read them, else as ibdiagnet2.sm lists them (ibdiagnet prints no activity count: -1); null when
     * neither was collected. sminfo wins: it is what the collector asked the SMs themselves.
     */
    public List<SmInfo> smsOrIbdiagnet() {
        if (sms != null && !sms.isEmpty() || diagSms == null) return sms;
        return diagSms.stream().map(FabricData::smInfo).toList();
    }

    private static final List<String> IBDIAG_STATES = List.of("not active", "discovering", "standby", "master");

    /** ibdiagnet's state word as SMInfo's state (0..3) and sminfo's name (SMINFO_MASTER). */
    private static SmInfo smInfo(Ibdiagnet.Sm s) {
        String st = s.state().toLowerCase(java.util.Locale.ROOT).replace('-', ' ').replace('_', ' ');
        int code = IBDIAG_STATES.indexOf(st);
        String name = code < 0 ? s.state() : "SMINFO_" + (code == 0 ? "NOTACTIVE" : st.toUpperCase(java.util.Locale.ROOT));
        return new SmInfo(s.lid(), s.guid(), -1, s.priority(), code, name, s.ref());
    }
}
