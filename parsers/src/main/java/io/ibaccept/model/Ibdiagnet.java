package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Map;

/**
 * ibdiagnet2 results: the -E-/-W- messages of ibdiagnet2.log, the sections of ibdiagnet2.db_csv, ibdiagnet2.pm, the SMs
 * of ibdiagnet2.sm and the partitions of ibdiagnet2.pkey.
 */
public final class Ibdiagnet {
    private Ibdiagnet() {}

    public enum Level { ERROR, WARNING }

    /** One -E-/-W- message; indented detail lines that follow it are folded into text, separated by "; ". */
    public record Message(Level level, String text, SourceRef ref) {
        /** "Ports counters value Check finished with errors": a stage's verdict line, the detail follows in its own messages. */
        public boolean stageSummary() {
            return text.endsWith("finished with errors") || text.endsWith("finished with warnings");
        }
    }

    public record Log(String version, List<Message> messages) {
        public Log {
            messages = List.copyOf(messages);
        }
    }

    public record Row(Map<String, String> values, SourceRef ref) {
        public String get(String column) {
            return values.getOrDefault(column, "");
        }
    }

    public record Section(String name, List<String> header, List<Row> rows) {}

    /**
     * pmInfo: the PM_INFO counters (one sample), pmDelta: the PM_DELTA counters (difference of the two samples taken
     * --pm_pause_time apart), both one record per (node GUID, port) under the IBA counter names, with the 64-bit
     * extended value where the port has one (SymbolErrorCounter = max(SymbolErrorCounter, SymbolErrorCounterExt)).
     */
    public record Db(Map<String, Section> sections, List<PortCounters> pmInfo, List<PortCounters> pmDelta) {
        public Db {
            pmInfo = List.copyOf(pmInfo);
            pmDelta = List.copyOf(pmDelta);
        }

        public Section section(String name) {
            return sections.get(name);
        }
    }

    /**
     * One SM ibdiagnet found (ibdiagnet2.sm: "SM - master" then "Port=0 lid=0x00b4 guid=0x.. dev=54002 priority:12"). state
     * is the word ibdiagnet prints after "SM - " (master, standby, discovering, not active).
     */
    public record Sm(String state, int port, int lid, long guid, int device, int priority, SourceRef ref) {
        public boolean isMaster() {
            return state.equalsIgnoreCase("master");
        }
    }

    /**
     * One partition of ibdiagnet2.pkey ("GROUP PKey:0x7fff Hosts:272"): the P_Key as printed, the member count
     * ibdiagnet states, and every member port listed under it.
     */
    public record PkeyGroup(int pkey, int hosts, List<PkeyMember> members, SourceRef ref) {
        public PkeyGroup {
            members = List.copyOf(members);
        }

        /** The partition number (membership bit cleared). */
        public int partition() {
            return pkey & 0x7fff;
        }
    }

    /**
     * A member port ("  Full is-north-7-compute-19/mlx5_10/B184D0F0/0/0/1 lid=0x010d guid=0x.. dev=4129"): name is
     * ibdiagnet's (node description or S&lt;guid&gt;/N&lt;guid&gt;, then device and port), port the number after its
     * last "/P" or "/" (-1 when it has none), full whether the first word is Full (else Limited).
     */
    public record PkeyMember(String membership, String name, int port, int lid, long guid, int device, SourceRef ref) {
        public boolean full() {
            return membership.equalsIgnoreCase("Full");
        }
    }
}
