package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Map;

/** ibdiagnet2 results: the -E-/-W- messages of ibdiagnet2.log and the sections of ibdiagnet2.db_csv. */
public final class Ibdiagnet {
    private Ibdiagnet() {}

    public enum Level { ERROR, WARNING }

    public record Message(Level level, String text, SourceRef ref) {}

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

    public record Db(Map<String, Section> sections) {
        public Section section(String name) {
            return sections.get(name);
        }
    }
}
