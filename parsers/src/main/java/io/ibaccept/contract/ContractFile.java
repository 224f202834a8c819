package io.ibaccept.contract;

import io.ibaccept.model.Hostlist;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads an acceptance contract (YAML; the schema is in the README, section "Acceptance contract"). The file is read as
 * a tree of nodes with their lines, so every error names file:line: an unknown key, a value of the wrong type, a bad
 * hostlist, a host in two classes. Anchors, aliases and tags are refused (a contract is written by hand), and so is a
 * file over 1 MiB.
 */
public final class ContractFile {
    private ContractFile() {}

    static final long MAX_BYTES = 1 << 20;

    /**
     * A subnet addresses at most 49,151 endpoints (unicast LIDs 0x0001-0xBFFF), so no hostlist of a contract names
     * more; and over the whole contract at most four times that: every host of a full subnet in hosts, again in its
     * class, and room for partitions' members to name them twice more. Beyond that a contract of a few hundred bytes
     * (dozens of expressions, each under the hostlist's own million) would take minutes and gigabytes to read.
     */
    static final int MAX_NAMES_PER_LIST = 49_151, MAX_NAMES = 4 * MAX_NAMES_PER_LIST;

    /** An unusable contract: the message names the file and the line. */
    public static final class BadContract extends RuntimeException {
        public BadContract(String message) {
            super(message, null, false, false);
        }
    }

    /** The keys of each section, for "unknown key" errors and the README. */
    static final Map<String, Set<String>> KEYS = Map.of(
            "", Set.of("cluster", "hosts", "classes", "fabric", "links", "sm", "partitions", "versions", "performance", "counters", "required"),
            "class", Set.of("hosts", "hcas", "devices", "gpus", "link", "firmware"),
            "fabric", Set.of("switches", "leaves", "spines", "cores", "levels", "blocking_ratio", "rails"),
            "links", Set.of("host", "switch", "mtu"),
            "sm", Set.of("primary", "standby"),
            "partition", Set.of("name", "pkey", "members", "membership"),
            "versions", Set.of("firmware", "switch_firmware", "ofed", "ucx", "ompi"),
            "performance", Set.of("bandwidth_percent", "latency_usec", "collective_busbw_percent"),
            "counters", Set.of("ber_max", "window_min"));

    /** The tags YAML gives plain values, lists and mappings by itself. */
    static final Set<String> PLAIN_TAGS = Set.of("tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
            "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map");

    public static Contract load(Path file) {
        String text;
        try {
            text = io.ibaccept.safety.SideInput.read(file, MAX_BYTES, "contract");
        } catch (IOException e) { // SideInput's refusals name the file and say why
            throw new BadContract(e.getMessage());
        }
        return parse(file.toString(), text.getBytes(StandardCharsets.UTF_8)); // UTF-8 read strictly: the same bytes, for the id
    }

    public static Contract parse(String name, byte[] bytes) {
        return new Reader(name).read(new String(bytes, StandardCharsets.UTF_8), id(bytes));
    }

    /** "sha256:HEX" of the file as written: the contract's id on the cover and in findings.json. */
    static String id(byte[] bytes) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class Reader {
        private final String file;
        private final Map<String, Integer> lines = new HashMap<>();
        /** Names expanded from the contract's hostlists so far, against MAX_NAMES. */
        private int named;

        Reader(String file) {
            this.file = file;
        }

        Contract read(String text, String id) {
            Node root;
            try {
                LoaderOptions o = new LoaderOptions();
                o.setAllowDuplicateKeys(false);
                o.setMaxAliasesForCollections(1);
                o.setAllowRecursiveKeys(false);
                o.setCodePointLimit((int) MAX_BYTES);
                root = new Yaml(new SafeConstructor(o), new org.yaml.snakeyaml.representer.Representer(new org.yaml.snakeyaml.DumperOptions()),
                        new org.yaml.snakeyaml.DumperOptions(), o).compose(new java.io.StringReader(text));
            } catch (MarkedYAMLException e) {
                int line = e.getProblemMark() != null ? e.getProblemMark().getLine() + 1 : 1;
                throw new BadContract(file + ":" + line + ": not YAML: " + e.getProblem());
            } catch (YAMLException e) {
                throw new BadContract(file + ": not YAML: " + e.getMessage());
            }
            if (root == null) throw new BadContract(file + ":1: the contract is empty");
            plain(root, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
            Map<String, Node> top = map(root, "", KEYS.get(""));
            String cluster = text(top.get("cluster"));
            List<String> hosts = hostlist(top.get("hosts"));
            List<Contract.NodeClass> classes = classes(top.get("classes"));
            Contract.Fabric fabric = fabric(top.get("fabric"));
            Map<String, Node> links = top.containsKey("links") ? map(top.get("links"), "links", KEYS.get("links")) : Map.of();
            Contract.Link hostLink = link(links.get("host")), switchLink = link(links.get("switch"));
            Integer mtu = mtu(links.get("mtu"));
            Contract.Sm sm = sm(top.get("sm"));
            List<Contract.Partition> partitions = partitions(top.get("partitions"));
            Contract.Versions versions = versions(top.get("versions"));
            Map<String, Node> perf = top.containsKey("performance") ? map(top.get("performance"), "performance", KEYS.get("performance")) : Map.of();
            Contract.Performance performance = new Contract.Performance(percent(perf.get("bandwidth_percent")), number(perf.get("latency_usec")),
                    percent(perf.get("collective_busbw_percent")));
            Map<String, Node> ctr = top.containsKey("counters") ? map(top.get("counters"), "counters", KEYS.get("counters")) : Map.of();
            Contract.Counters counters = new Contract.Counters(ber(ctr.get("ber_max")), duration(ctr.get("window_min")));
            List<String> required = new ArrayList<>();
            Node req = top.get("required");
            if (req != null) for (Node n : seq(req, "a list of check ids")) {
                String c = text(n);
                if (required.contains(c)) throw new BadContract(at(n) + "check " + c + " is required twice");
                lines.put("required." + c, line(n));
                required.add(c);
            }
            Set<String> hostSet = new java.util.HashSet<>(hosts);
            for (Contract.NodeClass c : classes)
                if (!hosts.isEmpty())
                    for (String h : c.hosts())
                        if (!hostSet.contains(h))
                            throw new BadContract(at(lines.get("classes." + c.name() + ".hosts")) + "host " + h + " of class " + c.name()
                                    + " is not among the contract's hosts");
            return new Contract(file, id, cluster, hosts, classes, fabric, hostLink, switchLink, mtu, sm, partitions, versions,
                    performance, counters, required, lines, Map.of());
        }

        /** A contract is written by hand: no anchors or aliases (a node met twice), no tags beyond YAML's own plain types. */
        private void plain(Node n, Set<Node> seen) {
            if (!seen.add(n)) throw new BadContract(at(n) + "aliases (*name) are not allowed in a contract; write the value out");
            if (n.getAnchor() != null) throw new BadContract(at(n) + "anchors (&" + n.getAnchor() + ") are not allowed in a contract");
            String tag = n.getTag().getValue();
            if (!PLAIN_TAGS.contains(tag)) throw new BadContract(at(n) + "tag " + tag + " is not allowed in a contract");
            if (n instanceof MappingNode m) for (NodeTuple t : m.getValue()) {
                plain(t.getKeyNode(), seen);
                plain(t.getValueNode(), seen);
            } else if (n instanceof SequenceNode q) for (Node i : q.getValue()) plain(i, seen);
        }

        private String at(Integer line) {
            return file + ":" + (line == null ? 1 : line) + ": ";
        }

        private String at(Node n) {
            return at(line(n));
        }

        private static int line(Node n) {
            return n.getStartMark() == null ? 1 : n.getStartMark().getLine() + 1;
        }

        /** A mapping's entries by key, refusing keys the section does not have (allowed null: any key, e.g. class names). */
        private Map<String, Node> map(Node n, String path, Set<String> allowed) {
            if (!(n instanceof MappingNode m)) throw new BadContract(at(n) + (path.isEmpty() ? "the contract" : path) + " must be a mapping of keys to values");
            Map<String, Node> out = new LinkedHashMap<>();
            for (NodeTuple t : m.getValue()) {
                if (!(t.getKeyNode() instanceof ScalarNode k)) throw new BadContract(at(t.getKeyNode()) + "a key must be a plain word");
                String key = k.getValue();
                if (out.containsKey(key)) throw new BadContract(at(k) + "'" + key + "' is given twice" + (path.isEmpty() ? "" : " in " + path));
                if (allowed != null && !allowed.contains(key))
                    throw new BadContract(at(k) + "unknown key '" + key + "'" + (path.isEmpty() ? "" : " in " + path) + "; known: "
                            + String.join(", ", allowed.stream().sorted().toList()));
                out.put(key, t.getValueNode());
                lines.put(path.isEmpty() ? key : path + "." + key, line(k));
            }
            return out;
        }

        private List<Node> seq(Node n, String what) {
            if (n instanceof SequenceNode s) return s.getValue();
            throw new BadContract(at(n) + "expected " + what + " (a YAML list)");
        }

        private String text(Node n) {
            if (n == null) return null;
            if (!(n instanceof ScalarNode s)) throw new BadContract(at(n) + "expected a single value, found a " + (n instanceof SequenceNode ? "list" : "mapping"));
            String v = s.getValue().trim();
            if (v.isEmpty()) throw new BadContract(at(n) + "the value is empty");
            return v;
        }

        /** A hostlist expression ("gpu[001-128],login1") or a YAML list of them. */
        private List<String> hostlist(Node n) {
            if (n == null) return List.of();
            List<Node> items = n instanceof SequenceNode s ? s.getValue() : List.of(n);
            java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
            for (Node i : items) {
                String expr = text(i);
                int max = Math.min(MAX_NAMES_PER_LIST - out.size(), MAX_NAMES - named);
                List<String> names;
                try {
                    names = Hostlist.expand(expr, max);
                } catch (Hostlist.TooMany e) {
                    throw new BadContract(at(i) + (max < MAX_NAMES_PER_LIST - out.size()
                            ? String.format(Locale.ROOT, "the contract's hostlists name more than %,d hosts in all (4 x the %,d endpoints a subnet can address):"
                                    + " not a contract of one fabric", MAX_NAMES, MAX_NAMES_PER_LIST)
                            : String.format(Locale.ROOT, "a hostlist of a contract names at most %,d hosts (the endpoints a subnet can address: unicast LIDs"
                                    + " 0x0001-0xBFFF); this one names more", MAX_NAMES_PER_LIST)));
                } catch (IllegalArgumentException e) {
                    throw new BadContract(at(i) + e.getMessage());
                }
                named += names.size();
                out.addAll(names);
            }
            return List.copyOf(out);
        }

        private List<Contract.NodeClass> classes(Node n) {
            if (n == null) return List.of();
            List<Contract.NodeClass> out = new ArrayList<>();
            Map<String, String> classOf = new HashMap<>();
            for (Map.Entry<String, Node> e : map(n, "classes", null).entrySet()) {
                String name = e.getKey(), path = "classes." + name;
                Map<String, Node> c = map(e.getValue(), path, KEYS.get("class"));
                if (!c.containsKey("hosts")) throw new BadContract(at(e.getValue()) + "class " + name + " needs its hosts (a hostlist)");
                List<String> hosts = hostlist(c.get("hosts"));
                for (String h : hosts) {
                    String before = classOf.put(h, name);
                    if (before != null) throw new BadContract(at(c.get("hosts")) + "host " + h + " is in class " + before + " and in class " + name);
                }
                List<String> devices = hostlist(c.get("devices"));
                Integer hcas = count(c.get("hcas"));
                if (hcas != null && !devices.isEmpty() && hcas != devices.size())
                    throw new BadContract(at(c.get("devices")) + "class " + name + " declares " + hcas + " HCAs but " + devices.size() + " device names");
                out.add(new Contract.NodeClass(name, hosts, hcas, devices, count(c.get("gpus")), link(c.get("link")), text(c.get("firmware"))));
            }
            return out;
        }

        private Contract.Fabric fabric(Node n) {
            if (n == null) return null;
            Map<String, Node> f = map(n, "fabric", KEYS.get("fabric"));
            Node sw = f.get("switches");
            boolean fromPlan = sw != null && "plan".equalsIgnoreCase(text(sw));
            Node br = f.get("blocking_ratio");
            Map<Integer, Double> byLevel = new java.util.TreeMap<>();
            Double ratio = null;
            if (br instanceof MappingNode) {
                // per level: leaves: "2:1", spines: "1:1"
                for (Map.Entry<String, Node> e : map(br, "fabric.blocking_ratio", Set.copyOf(Contract.ROLES)).entrySet())
                    byLevel.put(Contract.ROLES.indexOf(e.getKey()) + 1, ratio(e.getValue()));
                ratio = byLevel.get(1);
            } else ratio = ratio(br);
            return new Contract.Fabric(fromPlan ? null : count(sw), fromPlan, count(f.get("levels")), ratio,
                    count(f.get("leaves")), count(f.get("spines")), count(f.get("cores")), byLevel, count(f.get("rails")));
        }

        private Contract.Sm sm(Node n) {
            if (n == null) return null;
            Map<String, Node> s = map(n, "sm", KEYS.get("sm"));
            String primary = text(s.get("primary"));
            List<String> standby = hostlist(s.get("standby"));
            if (primary != null && standby.contains(primary)) throw new BadContract(at(s.get("standby")) + primary + " is the primary SM and a standby");
            return new Contract.Sm(primary, standby);
        }

        private List<Contract.Partition> partitions(Node n) {
            if (n == null) return List.of();
            List<Contract.Partition> out = new ArrayList<>();
            Map<Integer, String> seen = new HashMap<>();
            for (Node item : seq(n, "a list of partitions (name, pkey, members)")) {
                Map<String, Node> p = map(item, "partition", KEYS.get("partition"));
                String name = text(p.get("name"));
                Node key = p.get("pkey");
                if (name == null || key == null) throw new BadContract(at(item) + "a partition needs a name and a pkey");
                int pkey = pkey(key);
                if (seen.containsKey(pkey)) throw new BadContract(at(key) + String.format("P_Key 0x%04x is declared twice (%s, %s)", pkey, seen.get(pkey), name));
                seen.put(pkey, name);
                lines.put("partitions." + name, line(item));
                String membership = text(p.get("membership"));
                if (membership != null && !membership.equals("full") && !membership.equals("limited"))
                    throw new BadContract(at(p.get("membership")) + "membership is full or limited, not '" + membership + "'");
                out.add(new Contract.Partition(name, pkey, hostlist(p.get("members")), membership));
            }
            return out;
        }

        private Contract.Versions versions(Node n) {
            if (n == null) return new Contract.Versions(Map.of(), Map.of(), null, null, null);
            Map<String, Node> v = map(n, "versions", KEYS.get("versions"));
            Map<String, String> fw = new LinkedHashMap<>();
            Node f = v.get("firmware");
            if (f instanceof MappingNode) map(f, "versions.firmware", null).forEach((model, ver) -> fw.put(model, text(ver)));
            else if (f != null) fw.put("*", text(f));
            Map<String, String> sw = new LinkedHashMap<>();
            Node s = v.get("switch_firmware");
            if (s instanceof MappingNode) map(s, "versions.switch_firmware", null).forEach((dev, ver) -> {
                if (!dev.equals("*") && !dev.matches("\\d{1,6}"))
                    throw new BadContract(at(lines.get("versions.switch_firmware." + dev)) + "a switch model is its device ID in decimal as ibdiagnet's NODES gives it (e.g. 54002), or *; found '" + dev + "'");
                sw.put(dev, text(ver));
            });
            else if (s != null) sw.put("*", text(s));
            return new Contract.Versions(fw, sw, text(v.get("ofed")), text(v.get("ucx")), text(v.get("ompi")));
        }

        private Contract.Link link(Node n) {
            if (n == null) return null;
            String v = text(n);
            LinkSpeed speed = null;
            LinkWidth width = null;
            for (String w : v.split("[\\s,]+")) {
                var s = LinkSpeed.parse(w);
                var wd = LinkWidth.parse(w);
                if (s.isPresent() && speed == null) speed = s.get();
                else if (wd.isPresent() && width == null) width = wd.get();
                else throw new BadContract(at(n) + "a link is a speed and a width such as 'HDR 4X' (speeds SDR..XDR, widths 1X..12X); '" + w + "' is neither");
            }
            return new Contract.Link(speed, width);
        }

        private Integer mtu(Node n) {
            Integer m = count(n);
            if (m != null && !Set.of(256, 512, 1024, 2048, 4096).contains(m)) throw new BadContract(at(n) + "an IB MTU is 256, 512, 1024, 2048 or 4096, not " + m);
            return m;
        }

        private Integer count(Node n) {
            if (n == null) return null;
            String v = text(n);
            if (!v.matches("\\d{1,7}")) throw new BadContract(at(n) + "expected a whole number, found '" + v + "'");
            return Integer.parseInt(v);
        }

        private Double number(Node n) {
            if (n == null) return null;
            String v = text(n);
            try {
                double d = Double.parseDouble(v);
                if (!Double.isFinite(d) || d < 0 || v.matches("(?i).*(nan|inf).*")) throw new NumberFormatException();
                return d;
            } catch (NumberFormatException e) {
                throw new BadContract(at(n) + "expected a number, 0 or more, found '" + v + "'");
            }
        }

        private Double percent(Node n) {
            Double d = number(n);
            if (d != null && d > 100) throw new BadContract(at(n) + "a percentage is at most 100, found " + d);
            return d;
        }

        private Double ber(Node n) {
            Double d = number(n);
            if (d != null && (d >= 1 || d <= 0)) throw new BadContract(at(n) + "a bit error rate is above 0 and below 1 (e.g. 1e-12), found " + d);
            return d;
        }

        /** "2:1", "1.5:1", or the first number alone. */
        private Double ratio(Node n) {
            if (n == null) return null;
            String v = text(n);
            Matcher m = Pattern.compile("(\\d+(?:\\.\\d+)?)(?:\\s*:\\s*(\\d+(?:\\.\\d+)?))?").matcher(v);
            if (!m.matches()) throw new BadContract(at(n) + "a blocking ratio is down:up such as '2:1' or '1:1', found '" + v + "'");
            double down = Double.parseDouble(m.group(1)), up = m.group(2) == null ? 1 : Double.parseDouble(m.group(2));
            if (down <= 0 || up <= 0) throw new BadContract(at(n) + "a blocking ratio has no zero, found '" + v + "'");
            return down / up;
        }

        private int pkey(Node n) {
            String v = text(n).toLowerCase(Locale.ROOT);
            try {
                int k = v.startsWith("0x") ? Integer.parseInt(v.substring(2), 16) : Integer.parseInt(v);
                if (k < 1 || k > 0xffff || (k & 0x7fff) == 0) throw new NumberFormatException();
                return k & 0x7fff; // the membership bit is not part of the partition's key
            } catch (NumberFormatException e) {
                throw new BadContract(at(n) + "a P_Key is 0x0001..0x7fff (the membership bit is ignored), found '" + text(n) + "'");
            }
        }

        /** "10m", "1h", "90s", "600" (seconds). */
        private Duration duration(Node n) {
            if (n == null) return null;
            String v = text(n).toLowerCase(Locale.ROOT);
            Matcher m = Pattern.compile("(\\d{1,6})\\s*(s|m|min|h)?").matcher(v);
            if (!m.matches()) throw new BadContract(at(n) + "a duration such as 10m, 1h or 600s, found '" + v + "'");
            long k = Long.parseLong(m.group(1));
            String u = m.group(2) == null ? "s" : m.group(2);
            return u.equals("h") ? Duration.ofHours(k) : u.startsWith("m") ? Duration.ofMinutes(k) : Duration.ofSeconds(k);
        }
    }
}
