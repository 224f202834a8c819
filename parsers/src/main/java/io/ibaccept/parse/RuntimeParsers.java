package io.ibaccept.parse;

import io.ibaccept.model.RdmaRuntime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * MPI/RDMA runtime outputs: ucx_info -v / -d, ompi_info, the HCA NUMA nodes from sysfs, nvidia-smi topo
 * -m and lsmod. Formats as the tools print them (captures in src/test/resources/real, sources in real/SOURCES.md).
 */
public final class RuntimeParsers {
    private RuntimeParsers() {}

    /**
     * ucx_info -v: "# Library version: 1.16.0" (UCX 1.9 and later) or "# UCT version=1.5.0 revision 02078b9" (older).
     */
    public static String ucxVersion(Text t, Issues issues) {
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            String s = stripHash(lines.get(i));
            String v = null;
            if (s.startsWith("Library version:")) v = s.substring("Library version:".length()).trim();
            else if (s.startsWith("UCT version=")) {
                v = s.substring("UCT version=".length()).trim();
                int sp = v.indexOf(' ');
                if (sp > 0) v = v.substring(0, sp);
            }
            if (v == null) continue;
            if (!isVersion(v)) {
                issues.add(t, i + 1, "unrecognised UCX version '" + Text.excerpt(v) + "'");
                continue;
            }
            return v;
        }
        throw t.error(0, "not 'ucx_info -v' output (no '# Library version:' line)");
    }

    /**
     * ucx_info -d: "#      Transport: rc_mlx5" followed by "#         Device: mlx5_0:1" (UCX 1.10+), or the older
     * layout with "#   Transport: rc" and then one or more "#   Device: mlx5_0:1" blocks. A memory domain line ends
     * the transport it belongs to.
     */
    public static List<RdmaRuntime.UcxTransport> ucxDevices(Text t, Issues issues) {
        List<RdmaRuntime.UcxTransport> out = new ArrayList<>();
        List<String> lines = t.lines();
        String transport = null;
        boolean any = false;
        for (int i = 0; i < lines.size(); i++) {
            String raw = lines.get(i);
            if (raw.isBlank()) continue;
            if (!raw.startsWith("#")) {
                // UCX debug builds print log lines between the records; they are not part of the listing
                continue;
            }
            String s = stripHash(raw);
            if (s.startsWith("Memory domain:") || s.startsWith("Connection manager:")) {
                any = true;
                transport = null;
            } else if (s.startsWith("Transport:")) {
                any = true;
                transport = s.substring("Transport:".length()).trim();
                if (!isWord(transport)) {
                    issues.add(t, i + 1, "unrecognised transport name '" + Text.excerpt(transport) + "'");
                    transport = null;
                }
            } else if (s.startsWith("Device:")) {
                String dev = s.substring("Device:".length()).trim();
                if (transport == null) {
                    issues.add(t, i + 1, "device '" + Text.excerpt(dev) + "' without a transport before it");
                    continue;
                }
                if (!isWord(dev)) {
                    issues.add(t, i + 1, "unrecognised device name '" + Text.excerpt(dev) + "'");
                    continue;
                }
                out.add(new RdmaRuntime.UcxTransport(transport, dev, t.at(i + 1)));
            }
        }
        if (!any) throw t.error(0, "not 'ucx_info -d' output (no '# Memory domain:' or '# Transport:' line)");
        return out;
    }

    /**
     * ompi_info, plain ("                Open MPI: 4.1.6", "                 MCA pml: ucx (MCA v2.1.0, ...)") or
     * --parsable ("ompi:version:full:4.1.6", "mca:pml:ucx:version:mca:2.1.0").
     */
    public static RdmaRuntime.Ompi ompiInfo(Text t, Issues issues) {
        List<String> lines = t.lines();
        String version = null;
        int versionLine = 0;
        java.util.LinkedHashSet<String> pmls = new java.util.LinkedHashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).trim();
            if (s.startsWith("ompi:version:full:")) {
                version = s.substring("ompi:version:full:".length()).trim();
                versionLine = i + 1;
                continue;
            }
            if (s.startsWith("mca:pml:")) {
                int end = s.indexOf(':', "mca:pml:".length());
                if (end > "mca:pml:".length()) pmls.add(s.substring("mca:pml:".length(), end));
                continue;
            }
            int c = s.indexOf(": ");
            if (c <= 0) continue;
            String key = s.substring(0, c).trim();
            String value = s.substring(c + 2).trim();
            if (key.equals("Open MPI") && version == null) {
                if (!isVersion(value)) {
                    issues.add(t, i + 1, "unrecognised Open MPI version '" + Text.excerpt(value) + "'");
                    continue;
                }
                version = value;
                versionLine = i + 1;
            } else if (key.equals("MCA pml")) {
                int sp = value.indexOf(' ');
                String name = sp < 0 ? value : value.substring(0, sp);
                if (isWord(name)) pmls.add(name);
                else issues.add(t, i + 1, "unrecognised pml component '" + Text.excerpt(name) + "'");
            }
        }
        if (version == null) throw t.error(0, "not 'ompi_info' output (no 'Open MPI:' version line)");
        return new RdmaRuntime.Ompi(version, new ArrayList<>(pmls), t.at(versionLine));
    }

    /**
     * NUMA node per RDMA device as {@code grep -H . /sys/class/infiniband/*}{@code /device/numa_node} prints it:
     * "/sys/class/infiniband/mlx5_0/device/numa_node:1" (-1: the platform reports no NUMA affinity).
     */
    public static Map<String, Integer> hcaNuma(Text t, Issues issues) {
        Map<String, Integer> out = new TreeMap<>();
        List<String> lines = t.lines();
        final String prefix = "/sys/class/infiniband/";
        final String suffix = "/device/numa_node:";
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String s = lines.get(i).trim();
            if (s.isEmpty()) continue;
            int end = s.indexOf(suffix);
            if (!s.startsWith(prefix) || end <= prefix.length()) {
                issues.add(t, ln, "expected '/sys/class/infiniband/DEV/device/numa_node:N', found '" + Text.excerpt(s) + "'");
                continue;
            }
            String dev = s.substring(prefix.length(), end);
            if (!isWord(dev) || dev.contains("/")) {
                issues.add(t, ln, "unrecognised RDMA device name '" + Text.excerpt(dev) + "'");
                continue;
            }
            Integer n = issues.record(() -> Nums.integer(t, ln, s.substring(end + suffix.length())));
            if (n != null) out.put(dev, n);
        }
        if (out.isEmpty() && issues.list().isEmpty()) throw t.error(0, "no /sys/class/infiniband/*/device/numa_node line");
        return out;
    }

    /**
     * nvidia-smi topo -m: a header row of GPU/NIC labels (NIC0.. with a "NIC Legend:" naming the RDMA devices, or
     * the device names themselves in older drivers) then "CPU Affinity", "NUMA Affinity" (and "GPU NUMA ID");
     * one row per GPU. NIC rows and the legend of link types are not needed.
     */
    public static RdmaRuntime.GpuTopology nvidiaTopo(Text t, Issues issues) {
        List<String> lines = t.lines();
        List<String> labels = null;
        int headerLine = -1, affinities = 0;
        Map<String, String> legend = new LinkedHashMap<>();
        boolean inLegend = false;
        for (int i = 0; i < lines.size(); i++) {
            String s = stripAnsi(lines.get(i)).trim();
            if (s.equals("NIC Legend:")) {
                inLegend = true;
                continue;
            }
            if (inLegend) {
                int c = s.indexOf(':');
                if (s.startsWith("NIC") && c > 3) legend.put(s.substring(0, c).trim(), s.substring(c + 1).trim());
                continue;
            }
            if (labels == null && s.startsWith("GPU0") && s.contains("CPU Affinity")) {
                labels = new ArrayList<>();
                for (String w : Fields.split(s.substring(0, s.indexOf("CPU Affinity")))) labels.add(w);
                headerLine = i;
                // each a single cell per row ("0-47,96-143", "0", "N/A")
                affinities = 1 + (s.contains("NUMA Affinity") ? 1 : 0) + (s.contains("GPU NUMA ID") ? 1 : 0);
            }
        }
        if (labels == null) throw t.error(0, "not 'nvidia-smi topo -m' output (no 'GPU0 ... CPU Affinity' header)");
        List<RdmaRuntime.Gpu> gpus = new ArrayList<>();
        for (int i = headerLine + 1; i < lines.size(); i++) {
            String s = stripAnsi(lines.get(i)).trim();
            if (s.isEmpty() || s.equals("Legend:")) break;
            List<String> w = Fields.split(s); // tabs or runs of spaces: copies often turn tabs into spaces
            if (!isGpuLabel(w.get(0))) continue; // NIC rows
            int ln = i + 1;
            // a cell missing (or one too many) shifts every cell after it: the row is not read, the others are
            if (w.size() != 1 + labels.size() + affinities) {
                issues.add(t, ln, "GPU row with " + (w.size() - 1) + " cells, the header names " + labels.size()
                        + " devices plus " + affinities + " affinity column(s): a cell is missing or extra, so this GPU's links are not read");
                continue;
            }
            Map<String, String> nics = new LinkedHashMap<>();
            for (int k = 0; k < labels.size(); k++) {
                String label = labels.get(k);
                if (isGpuLabel(label)) continue;
                nics.put(legend.getOrDefault(label, label), w.get(k + 1));
            }
            String cpu = w.get(labels.size() + 1);
            String numa = affinities > 1 ? w.get(labels.size() + 2) : "";
            Integer numaNode = null;
            if (Nums.isDigits(numa) && !numa.isEmpty() && numa.length() < 6) numaNode = Integer.parseInt(numa);
            gpus.add(new RdmaRuntime.Gpu(w.get(0), nics, cpu, numaNode, t.at(ln)));
        }
        return new RdmaRuntime.GpuTopology(gpus);
    }

    /** lsmod: "Module                  Size  Used by" then one module per line; the names in order. */
    public static List<String> lsmod(Text t, Issues issues) {
        List<String> out = new ArrayList<>();
        boolean header = false;
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).trim();
            if (s.isEmpty()) continue;
            if (s.startsWith("Module") && s.contains("Used by")) {
                header = true;
                continue;
            }
            List<String> w = Fields.split(s);
            if (w.size() < 2 || !Nums.isDigits(w.get(1)) || !isWord(w.get(0))) {
                issues.add(t, i + 1, "expected 'module size used-by', found '" + Text.excerpt(s) + "'");
                continue;
            }
            out.add(w.get(0));
        }
        if (!header) throw t.error(0, "not 'lsmod' output (no 'Module Size Used by' header)");
        return out;
    }

    private static boolean isGpuLabel(String s) {
        return s.length() > 3 && s.startsWith("GPU") && Nums.isDigits(s.substring(3));
    }

    /** nvidia-smi underlines the header on a terminal (ESC[4m ... ESC[0m): dropped, scanned without regex. */
    private static String stripAnsi(String s) {
        if (s.indexOf('\u001b') < 0) return s;
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\u001b' && i + 1 < s.length() && s.charAt(i + 1) == '[') {
                int j = i + 2;
                while (j < s.length() && (Character.isDigit(s.charAt(j)) || s.charAt(j) == ';')) j++;
                i = j; // skips the final letter too
                continue;
            }
            b.append(c);
        }
        return b.toString();
    }

    private static String stripHash(String line) {
        int i = 0;
        while (i < line.length() && (line.charAt(i) == '#' || Character.isWhitespace(line.charAt(i)))) i++;
        return line.substring(i).trim();
    }

    private static boolean isVersion(String v) {
        if (v.isEmpty() || v.length() > 64 || !Character.isDigit(v.charAt(0))) return false;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '_' || c == '+' || c == '~')) return false;
        }
        return true;
    }

    /** Names of transports, devices, modules: letters, digits, '_', '-', '.', ':' (no spaces, no control characters). */
    private static boolean isWord(String v) {
        if (v.isEmpty() || v.length() > 128) return false;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
                    || c == '.' || c == ':';
            if (!ok) return false;
        }
        return true;
    }
}
