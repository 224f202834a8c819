package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostConfig;
import io.ibaccept.model.HostData;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * HCA firmware configuration (mlxconfig q) compared across the HCAs of the same device type: a setting that differs
 * on some HCAs (adaptive routing, RoCE congestion control, link type, SR-IOV, PCI tuning) makes those hosts behave
 * differently from the rest. Hosts whose HCAs differ from the majority in the same settings are one WARN. The
 * adaptive-routing and congestion-control settings are listed as facts.
 */
final class HcaConfig implements Check {
    public String id() {
        return "hca.config";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.MLXCONFIG));
    }

    /** Settings that concern adaptive routing / congestion control / the IB routing mode (reported as facts). */
    static boolean arOrCc(String name) {
        return name.contains("ADAPTIVE_ROUTING") || name.startsWith("ROCE_CC") || name.contains("_CC_") || name.startsWith("CNP_")
                || name.startsWith("IB_ROUTING_MODE") || name.startsWith("RPG_") || name.startsWith("DCE_TCP") || name.equals("USER_PROGRAMMABLE_CC");
    }

    public void evaluate(Ctx c) {
        // device type (and port 1 link type) -> "host device" -> the device's config
        Map<String, Map<String, HostConfig.MlxDevice>> byType = new TreeMap<>();
        Map<String, String> hostOf = new LinkedHashMap<>();
        for (HostData h : c.data.hosts().values()) {
            if (h.config() == null || h.config().mlxconfig() == null) continue;
            for (HostConfig.MlxDevice d : h.config().mlxconfig()) {
                String key = h.host() + (h.config().mlxconfig().size() > 1 ? " " + d.device() : "");
                // InfiniBand and Ethernet ports of the same ConnectX model are configured differently by design
                String link = d.settings().get("LINK_TYPE_P1");
                String type = (d.deviceType().isEmpty() ? "unknown device type" : d.deviceType())
                        + (link == null ? "" : " LINK_TYPE_P1=" + link);
                byType.computeIfAbsent(type, k -> new TreeMap<>()).put(key, d);
                hostOf.put(key, h.host());
            }
        }
        if (byType.isEmpty()) {
            c.skip("no mlxconfig output with settings on any host");
            return;
        }
        int bad = 0;
        List<String> facts = new ArrayList<>();
        for (Map.Entry<String, Map<String, HostConfig.MlxDevice>> t : byType.entrySet()) {
            Map<String, HostConfig.MlxDevice> devs = t.getValue();
            // minority devices -> the settings where they differ from the majority ("NAME value (majority m)")
            Map<List<String>, List<String>> diffsByDevices = new LinkedHashMap<>();
            Map<List<String>, List<Evidence>> evByDevices = new LinkedHashMap<>();
            java.util.Set<String> names = new java.util.TreeSet<>();
            for (HostConfig.MlxDevice d : devs.values()) names.addAll(d.settings().keySet());
            for (String name : names) {
                Map<String, String> byDev = new TreeMap<>();
                for (Map.Entry<String, HostConfig.MlxDevice> e : devs.entrySet()) {
                    String v = e.getValue().settings().get(name);
                    if (v != null) byDev.put(e.getKey(), v);
                }
                Map<String, List<String>> groups = Majority.groups(byDev);
                if (groups.size() < 2) continue;
                String majority = Majority.of(byDev.values(), Comparator.naturalOrder()).orElseThrow();
                for (Map.Entry<String, List<String>> g : groups.entrySet()) {
                    if (g.getKey().equals(majority)) continue;
                    List<String> keys = g.getValue();
                    diffsByDevices.computeIfAbsent(keys, k -> new ArrayList<>()).add(name + " " + g.getKey() + " (others " + majority + ")");
                    HostConfig.MlxDevice first = devs.get(keys.get(0));
                    evByDevices.computeIfAbsent(keys, k -> new ArrayList<>()).add(Evidence.of(keys.get(0) + ": " + name + " " + g.getKey()
                            + " (" + groups.get(majority).size() + " HCA(s): " + majority + ")", first.refs().getOrDefault(name, first.ref())));
                }
            }
            for (Map.Entry<List<String>, List<String>> e : diffsByDevices.entrySet()) {
                bad++;
                List<String> hosts = e.getKey().stream().map(hostOf::get).distinct().toList();
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("hosts", HostConfigs.hostlist(hosts));
                v.put("device_type", t.getKey());
                v.put("settings", String.join(", ", e.getValue()));
                boolean ar = e.getValue().stream().anyMatch(s -> arOrCc(s.substring(0, s.indexOf(' '))));
                c.problem(Status.WARN, hosts, HostConfigs.limit(evByDevices.get(e.getKey())), hosts.size() + " host(s) " + HostConfigs.hostlist(hosts)
                        + ": " + t.getKey() + " configured differently from the other " + t.getKey() + " HCAs: "
                        + String.join(", ", e.getValue().stream().limit(6).toList()) + (e.getValue().size() > 6 ? ", +" + (e.getValue().size() - 6) + " more" : "")
                        + (ar ? " (adaptive routing / congestion control)" : ""), "", v);
            }
            // facts: the AR/CC settings as the majority of this device type has them
            HostConfig.MlxDevice sample = devs.values().iterator().next();
            List<String> f = new ArrayList<>();
            for (Map.Entry<String, String> s : sample.settings().entrySet())
                if (arOrCc(s.getKey()) && !s.getKey().startsWith("RPG_") && !s.getKey().startsWith("DCE_TCP")) f.add(s.getKey() + "=" + s.getValue());
            facts.add(t.getKey() + " x" + devs.size() + (f.isEmpty() ? "" : " (" + String.join(", ", f.stream().limit(8).toList())
                    + (f.size() > 8 ? ", ..." : "") + ")"));
        }
        if (bad == 0) c.pass("HCA firmware settings consistent per device type: " + String.join("; ", facts), List.of(), List.of());
        else c.pass("note: adaptive routing / congestion control settings: " + String.join("; ", facts), List.of(), List.of());
    }
}
