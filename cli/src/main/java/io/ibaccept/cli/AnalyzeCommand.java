package io.ibaccept.cli;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.contract.Contract;
import io.ibaccept.contract.ContractFile;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.fabric.CablingPlan;
import io.ibaccept.fabric.NodeNameMap;
import io.ibaccept.report.CoverInfo;
import io.ibaccept.report.ReportCounts;
import io.ibaccept.report.ReportLayout;
import io.ibaccept.report.ReportWriter;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.Waivers;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "analyze", sortOptions = false,
        description = {"Analyse a dump offline (no IB needed) and write the reports: report.html, report.pdf, findings.csv, findings.json, "
                + "junit.xml, inventory.csv, the operations files (topology.conf, node-name-map, nhc.conf, drain.sh), and linkwindow.csv "
                + "(counter window per link) / workorder.csv (with --expect) when there is data for them.",
                "The exit code is the verdict (below)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:accepted (with or without warnings, waivers or limited coverage)", "1:not accepted: a check failed",
                "2:bad usage, unusable input, or a report that could not be written", "3:internal error (a bug: report it with the dump)",
                "4:incomplete: no check failed, but inputs were missing or broken, or required checks of the contract did not cover their scope"})
final class AnalyzeCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "DUMP", description = "dump directory, or the dump as a .zip file")
    Path dump;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "directory for the reports (created if missing)")
    Path outDir;

    @Option(names = "--rules", paramLabel = "FILE", description = "your own thresholds and texts: a properties file overriding any rule key ('ibaccept rules' lists the settings)")
    Path rules;

    @Option(names = "--waivers", paramLabel = "FILE",
            description = "accepted deviations: CSV lines check,objects,reason,owner,expires (YYYY-MM-DD); matching FAIL/WARN become WAIVED")
    Path waivers;

    @Option(names = "--customer", paramLabel = "NAME", description = "customer / cluster owner, for the cover page")
    String customer;

    @Option(names = "--site", paramLabel = "SITE", description = "site or data centre, for the cover page")
    String site;

    @Option(names = "--operator", paramLabel = "NAME", description = "who ran the acceptance, for the cover page")
    String operator;

    @Option(names = "--node-name-map", paramLabel = "FILE",
            description = "names for GUIDs in the ibnetdiscover/opensm format (0x<guid> \"name\"), so the report says 'leaf03 port 17'")
    Path nodeNameMap;

    @Option(names = "--expect", paramLabel = "PLAN",
            description = "the customer's cabling plan: CSV switch,port,peer,peer_port[,cable_id] (names or GUIDs) or a golden ibnetdiscover "
                    + "file; missing, extra and miswired cables become findings and a work order (workorder.csv and a report section)")
    Path expect;

    @Option(names = "--contract", paramLabel = "FILE",
            description = "the acceptance contract (YAML: hosts and classes, links, design, SMs, partitions, versions, targets, required checks): "
                    + "judge against what it declares, not the majority; a required check that did not cover its scope makes the verdict INCOMPLETE")
    Path contract;

    @Option(names = "--timings", description = "print on stderr the wall time, CPU time and peak RSS per phase (used by 'bench') and the wall time of each fact derived from the dump (fabric graph, routing walk, ...)")
    boolean timings;

    @Override
    public Integer call() {
        PrintStream out = main.out;
        Phases ph = timings ? new Phases() : null;
        ReportWriter.warmUp(); // on the second core while the dump loads
        RuleConfig cfg = rules == null ? RuleConfig.defaults() : RuleConfig.withOverrides(rules);
        Waivers accepted = waivers == null ? null : Waivers.load(waivers); // a bad file stops here, before the long part
        NodeNameMap names = nodeNameMap == null ? null : loadNames(nodeNameMap);
        CablingPlan plan = expect == null ? null : loadPlan(expect);
        Contract k = contract == null ? null : loadContract(contract);
        cfg = Analysis.rulesFor(cfg, k); // a contract that does not fit the checks stops here, before the dump is read
        ClusterData data = DumpLoader.load(dump);
        if (ph != null) ph.end("load+parse");
        Analysis a = Analysis.of(data, new Analysis.Options(cfg, names, plan, accepted, LocalDate.now(), k));
        Report r = a.report();
        if (ph != null) ph.end("rules");
        ReportWriter.Written w = ReportWriter.writeAll(a, outDir, new CoverInfo(customer, site, operator), ReportLayout.DEFAULT);
        if (ph != null) {
            ph.end("reports");
            ph.derived.addAll(a.derived());
        }
        // the counts every report states (ReportCounts): checks by their own status, root findings, consequences apart
        ReportCounts counts = ReportCounts.of(r);
        out.printf("%s - %s%n", r.verdictLine(), r.meaning());
        out.printf("  %s%n  %s%n  %d nodes from %s%n", counts.checksLine(), counts.findingsLine(), data.hosts().size(), dump);
        List<String> coverage = ReportCounts.coverageLines(r.coverage());
        for (int i = 0; i < coverage.size(); i++) out.println((i == 0 ? "  " : "    ") + coverage.get(i));
        // the FAIL/ERROR roots, each with how many findings are listed under it, as page 1 of the reports lists them
        for (String l : ReportCounts.rootFailureLines(r, ReportCounts.MAX_ROOT_LINES)) out.println("  " + l);
        w.files().forEach(p -> out.println("wrote " + p));
        w.errors().forEach(e -> main.err.println("ibaccept: could not write " + e));
        if (!w.errors().isEmpty()) main.err.println("ibaccept: no report was replaced: " + outDir + " keeps the previous complete set, if any");
        if (ph != null) ph.print(main.err);
        if (!w.errors().isEmpty()) return Main.USAGE;
        return exitCode(r.verdict());
    }

    /** 0 accepted (with or without warnings, waivers or limited coverage), 1 not accepted, 4 incomplete. */
    static int exitCode(io.ibaccept.rules.Verdict v) {
        return switch (v) {
            case ACCEPTED, ACCEPTED_WITH_WARNINGS, ACCEPTED_WITH_WAIVERS -> Main.ACCEPTED;
            case REJECTED -> Main.NOT_ACCEPTED;
            case INCOMPLETE -> Main.INCOMPLETE;
        };
    }

    static NodeNameMap loadNames(Path file) {
        try {
            return NodeNameMap.load(file);
        } catch (IOException e) {
            throw new Main.UsageError(e instanceof io.ibaccept.safety.SideInput.Refused ? e.getMessage()
                    : file + ": cannot read the node-name-map (" + io.ibaccept.safety.IoMessages.why(e) + ")");
        }
    }

    static Contract loadContract(Path file) {
        return ContractFile.load(file);
    }

    static CablingPlan loadPlan(Path file) {
        try {
            return CablingPlan.load(file);
        } catch (IOException e) {
            throw new Main.UsageError(e instanceof io.ibaccept.safety.SideInput.Refused ? e.getMessage()
                    : file + ": cannot read the cabling plan (" + io.ibaccept.safety.IoMessages.why(e) + ")");
        }
    }
}
