package io.ibaccept.model;

import java.util.List;

/** Fabric-wide results, collected once from the fabric node. A field is null when its input was unusable. */
public record FabricData(Topology topology, List<LinkInfo> links, List<SmInfo> sms, List<SmPort> smPorts,
                         List<PortCounters> perfCounters, List<PortCounters> errorCounters, Ibdiagnet.Log diagLog,
                         Ibdiagnet.Db diagDb,
                         CounterSample countersStart, CounterSample countersEnd) {}
