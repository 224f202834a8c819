package io.ibaccept.rules.checks;

import io.ibaccept.contract.Contract;
import io.ibaccept.model.HostData;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Hostlists;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The hosts the acceptance contract declares, against the dump: every declared host collected, no host the contract
 * does not know, and each class's hosts with the number of InfiniBand HCAs the class declares. The links, versions and
 * targets of the contract are judged by the checks that judge them anyway (they read it as their expectation).
 */
final class ContractHosts extends ContractCheck {
    public String id() {
        return "contract.hosts";
    }


    String inferredInstead() {
        return "the hosts of the dump are taken as the cluster";
    }

    void evaluate(Ctx c, Contract k) {
        if (k.hosts().isEmpty() && k.classes().isEmpty()) {
            c.skip("the contract declares no hosts");
            return;
        }
        java.util.Set<String> declaredSet = new java.util.LinkedHashSet<>(k.hosts());
        for (Contract.NodeClass cl : k.classes()) declaredSet.addAll(cl.hosts());
        List<String> declared = new ArrayList<>(declaredSet);
        int bad = 0;
        List<String> absent = declared.stream().filter(h -> !c.data.hosts().containsKey(h)).toList();
        if (!absent.isEmpty()) {
            bad++;
            c.problem(Status.FAIL, absent, List.of(Evidence.of(absent.size() + " declared host(s) have no directory in the dump", k.where("hosts"))),
                    absent.size() + " of " + declared.size() + " contract hosts are not in the dump: " + Hostlists.compress(absent), "absent",
                    Map.of("hosts", Hostlists.compress(absent), "count", absent.size()));
        }
        if (!k.hosts().isEmpty()) {
            List<String> extra = c.data.hosts().keySet().stream().filter(h -> !declaredSet.contains(h)).sorted().toList();
            if (!extra.isEmpty()) {
                bad++;
                c.problem(Status.WARN, extra, List.of(Evidence.of("the contract's hosts", k.where("hosts"))),
                        extra.size() + " host(s) in the dump are not in the contract: " + Hostlists.compress(extra), "extra",
                        Map.of("hosts", Hostlists.compress(extra), "count", extra.size()));
            }
        }
        int judged = 0;
        for (Contract.NodeClass cl : k.classes()) {
            if (cl.hcas() == null) continue;
            Map<Integer, List<String>> byCount = new TreeMap<>();
            List<Evidence> ev = new ArrayList<>();
            for (String h : cl.hosts()) {
                HostData d = c.data.hosts().get(h);
                if (d == null || d.ibstat() == null) continue;
                judged++;
                int n = d.infinibandCas().size();
                if (n == cl.hcas()) continue;
                byCount.computeIfAbsent(n, x -> new ArrayList<>()).add(h);
                if (ev.size() < 10) ev.add(Evidence.of(h + ": " + n + " InfiniBand HCA(s): "
                        + String.join(", ", d.infinibandCas().stream().map(ca -> ca.name()).toList()), d.infinibandCas().isEmpty() ? "" : d.infinibandCas().get(0).ref().toString()));
            }
            for (Map.Entry<Integer, List<String>> e : byCount.entrySet()) {
                bad++;
                List<Evidence> all = new ArrayList<>(ev);
                all.add(Evidence.of("class " + cl.name() + ": " + cl.hcas() + " HCAs", k.where("classes." + cl.name() + ".hcas")));
                c.problem(Status.FAIL, e.getValue(), all, e.getValue().size() + " host(s) of class " + cl.name() + " (" + Hostlists.compress(e.getValue())
                        + ") have " + e.getKey() + " InfiniBand HCA(s), the contract declares " + cl.hcas(), "hcas",
                        Map.of("hosts", Hostlists.compress(e.getValue()), "class", cl.name(), "found", e.getKey(), "declared", cl.hcas()));
            }
        }
        for (Contract.NodeClass cl : k.classes()) {
            if (cl.devices().isEmpty()) continue;
            java.util.Set<String> want = new java.util.TreeSet<>(cl.devices());
            Map<String, List<String>> byNames = new TreeMap<>();
            Map<String, String> refOf = new java.util.HashMap<>();
            for (String h : cl.hosts()) {
                HostData d = c.data.hosts().get(h);
                if (d == null || d.ibstat() == null) continue;
                java.util.Set<String> got = new java.util.TreeSet<>();
                d.infinibandCas().forEach(ca -> got.add(ca.name()));
                if (got.equals(want)) continue;
                String key = String.join(",", got);
                byNames.computeIfAbsent(key, x -> new ArrayList<>()).add(h);
                if (!d.infinibandCas().isEmpty()) refOf.putIfAbsent(key, d.infinibandCas().get(0).ref().toString());
            }
            for (Map.Entry<String, List<String>> e : byNames.entrySet()) {
                bad++;
                java.util.Set<String> missing = new java.util.TreeSet<>(want);
                missing.removeAll(java.util.Arrays.asList(e.getKey().split(",")));
                c.problem(Status.FAIL, e.getValue(), List.of(Evidence.of(e.getValue().get(0) + ": " + (e.getKey().isEmpty() ? "no InfiniBand CA" : e.getKey()),
                                refOf.getOrDefault(e.getKey(), "")), Evidence.of("class " + cl.name() + ": " + String.join(",", want), k.where("classes." + cl.name() + ".devices"))),
                        e.getValue().size() + " host(s) of class " + cl.name() + " (" + Hostlists.compress(e.getValue()) + ") have InfiniBand devices "
                                + (e.getKey().isEmpty() ? "none" : e.getKey()) + ", the contract declares " + String.join(",", want)
                                + (missing.isEmpty() ? "" : " (missing " + String.join(",", missing) + ")"), "devices",
                        Map.of("hosts", Hostlists.compress(e.getValue()), "class", cl.name(), "found", e.getKey(), "declared", String.join(",", want)));
            }
        }
        for (Contract.NodeClass cl : k.classes()) {
            if (cl.gpus() == null) continue;
            Map<Integer, List<String>> byCount = new TreeMap<>();
            String ref = "";
            for (String h : cl.hosts()) {
                HostData d = c.data.hosts().get(h);
                if (d == null || d.runtime() == null || d.runtime().gpuTopology() == null) continue;
                judged++;
                int n = d.runtime().gpuTopology().gpus().size();
                if (n == cl.gpus()) continue;
                byCount.computeIfAbsent(n, x -> new ArrayList<>()).add(h);
                if (ref.isEmpty() && !d.runtime().gpuTopology().gpus().isEmpty()) ref = d.runtime().gpuTopology().gpus().get(0).ref().toString();
            }
            for (Map.Entry<Integer, List<String>> e : byCount.entrySet()) {
                bad++;
                c.problem(Status.FAIL, e.getValue(), List.of(Evidence.of(e.getValue().get(0) + ": " + e.getKey() + " GPU(s) in nvidia-smi topo -m", ref),
                                Evidence.of("class " + cl.name() + ": " + cl.gpus() + " GPUs", k.where("classes." + cl.name() + ".gpus"))),
                        e.getValue().size() + " host(s) of class " + cl.name() + " (" + Hostlists.compress(e.getValue()) + ") have " + e.getKey()
                                + " GPU(s), the contract declares " + cl.gpus(), "gpus",
                        Map.of("hosts", Hostlists.compress(e.getValue()), "class", cl.name(), "found", e.getKey(), "declared", cl.gpus()));
            }
        }
        if (bad == 0)
            c.pass("all " + declared.size() + " contract hosts are in the dump" + (judged > 0 ? ", " + judged + " with the HCAs of their class" : ""),
                    List.of(), List.of());
    }
}
