package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Map;

/** ibdiagnet2 results: the -E-/-W- messages of ibdiagnet2.log, the sections of ibdiagnet2.db_csv, ibdiagnet2.pm. */
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
}
