package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one subnet manager node runs with: the running opensm's process facts, its opensm.conf, its
 * partitions.conf and a tail of its log. Any part is null when it was not collected. Effective values: an option given
 * on opensm's command line wins over the file (opensm parses -F first, then the other options).
 */
public record SmConfig(String host, Process process, Conf conf, Partitions partitions, Log log, RoutingFiles routingFiles) {

    /** Without the routing files (dumps written before they were collected). */
    public SmConfig(String host, Process process, Conf conf, Partitions partitions, Log log) {
        this(host, process, conf, partitions, log, null);
    }

    /** The routing files opensm names, by opensm.conf key: the path as written and the text (null when unreadable there). */
    public record RoutingFiles(Map<String, RoutingFile> files) {
        public RoutingFiles {
            files = Map.copyOf(files);
        }
    }

    public record RoutingFile(String key, String path, String text, SourceRef ref) {}

    /** The running opensm: pid, its arguments and the files it uses (as resolved on the node). */
    public record Process(long pid, List<String> args, String configFile, String partitionsFile, String logFile,
                          SourceRef ref) {
        public Process {
            args = List.copyOf(args);
        }

        /** pid 0: the record of a node named as an SM node where no opensm process runs. */
        public boolean running() {
            return pid > 0;
        }
    }

    /** opensm.conf: "key value" lines; the last occurrence of a key wins, as in opensm's parser. */
    public record Conf(Map<String, Option> options, String file) {
        public Conf {
            options = Map.copyOf(options);
        }
    }

    public record Option(String key, String value, SourceRef ref) {}

    /**
     * partitions.conf as opensm reads it. pkeyAsWritten keeps the membership bit the file wrote (0xffff), pkey() is the
     * partition opensm makes of it (bit cleared). errors are the lines opensm rejects (it skips the rest of such a line).
     */
    public record Partitions(List<Partition> partitions, List<SyntaxError> errors, String file) {
        public Partitions {
            partitions = List.copyOf(partitions);
            errors = List.copyOf(errors);
        }
    }

    public record Partition(String name, int pkeyAsWritten, boolean ipoib, Integer mtu, Integer rate, Integer sl,
                            Membership defmember, boolean defmemberWritten, List<Member> members, SourceRef ref) {
        public Partition {
            members = List.copyOf(members);
        }

        /** The partition number opensm uses: the membership bit of what was written is cleared. */
        public int pkey() {
            return pkeyAsWritten & 0x7fff;
        }
    }

    public enum Membership { FULL, LIMITED, BOTH }

    /**
     * One member: ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS, SELF, or a port GUID (guid non-zero). flagWritten: '=full'
     * etc. was written; otherwise the partition's defmember (limited unless set) applies.
     */
    public record Member(String name, long guid, Membership membership, boolean flagWritten, SourceRef ref) {
        public boolean isGuid() {
            return guid != 0;
        }
    }

    /**
     * rejected: opensm rejects the line ("PARSE ERROR"; opensm 3.3.23 then discards the whole file and runs the
     * default partition only); otherwise opensm skips or ignores the item with a warning.
     */
    public record SyntaxError(SourceRef ref, String message, boolean rejected) {}

    /** The opensm.log tail: each notable event with its kind ("sm-port-down", "duplicate-guid", ...). */
    public record Log(List<LogEvent> events, int lines, String file) {
        public Log {
            events = List.copyOf(events);
        }
    }

    /** stamp: when opensm logged it (null where the line's time could not be read). */
    public record LogEvent(String kind, String message, SourceRef ref, Stamp stamp) {}

    /**
     * An opensm.log time: as printed ("Dec 04 05:18:05") and in milliseconds from the start of its year. opensm prints no
     * year: an interval across New Year's Eve is taken as the shorter way round.
     */
    public record Stamp(String text, long millisOfYear) {
        /** Seconds from this stamp to a later one. */
        public double secondsUntil(Stamp later) {
            long d = later.millisOfYear - millisOfYear;
            if (d < -180L * 86_400_000) d += 366L * 86_400_000; // the later one is in the next year
            return d / 1000.0;
        }
    }

    /** The effective value of an opensm option: the command line's, else opensm.conf's. */
    public Optional<Option> option(String key) {
        if (process != null) {
            String flag = CMDLINE.get(key);
            if (flag != null) {
                String v = argValue(process.args(), flag);
                if (v != null) return Optional.of(new Option(key, v, process.ref()));
            }
        }
        return conf == null ? Optional.empty() : Optional.ofNullable(conf.options().get(key));
    }

    /** opensm.conf keys that have a command-line option ("short|long"). */
    private static final Map<String, String> CMDLINE = Map.ofEntries(Map.entry("sm_priority", "-p|--priority"), Map.entry("guid", "-g|--guid"),
            Map.entry("routing_engine", "-R|--routing_engine"), Map.entry("partition_config_file", "-P|--Pconfig"), Map.entry("log_file", "-f|--log_file"),
            Map.entry("sm_key", "-k|--smkey"), Map.entry("sweep_interval", "-s|--sweep"), Map.entry("part_enforce", "-Z|--part_enforce"),
            Map.entry("lmc", "-l|--lmc"), Map.entry("root_guid_file", "-a|--root_guid_file"), Map.entry("cn_guid_file", "-u|--cn_guid_file"),
            Map.entry("io_guid_file", "-G|--io_guid_file"), Map.entry("ids_guid_file", "-m|--ids_guid_file"),
            Map.entry("guid_routing_order_file", "-X|--guid_routing_order_file"), Map.entry("hop_weights_file", "-w|--hop_weights_file"),
            Map.entry("port_search_ordering_file", "-O|--port_search_ordering_file"));

    /** The value of an option in argv: "-p 5", "-p5", "--priority 5", "--priority=5" (the last one given wins). */
    static String argValue(List<String> args, String flag) {
        String[] f = flag.split("\\|");
        String shortF = f[0], longF = f[1];
        String v = null;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if ((a.equals(shortF) || a.equals(longF)) && i + 1 < args.size()) v = args.get(++i);
            else if (a.startsWith(longF + "=")) v = a.substring(longF.length() + 1);
            else if (a.startsWith(shortF) && a.length() > 2 && !a.startsWith("--")) v = a.substring(2);
        }
        return v;
    }
}
