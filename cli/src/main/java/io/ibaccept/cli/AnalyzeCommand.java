package io.ibaccept.cli;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.report.CoverInfo;
import io.ibaccept.report.ReportWriter;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.Waivers;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "analyze", sortOptions = false,
        description = {"Analyse a dump offline (no IB needed) and write the reports: report.html, report.pdf, findings.csv, findings.json, "
                + "junit.xml, inventory.csv and the operations files (topology.conf, node-name-map, nhc.conf, drain.sh).",
                "The exit code is the verdict: 0 accepted (with or without warnings or waivers), 1 not accepted or incomplete."})
final class AnalyzeCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "DUMP", description = "dump directory, or the dump as a .zip file")
    Path dump;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "directory for the reports (created if missing)")
    Path outDir;

    @Option(names = "--rules", paramLabel = "FILE", description = "your own thresholds: a properties file overriding keys of rules.properties")
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

    @Option(names = "--timings", description = "print wall time, CPU time and peak RSS per phase on stderr (used by 'bench')")
    boolean timings;

    @Override
    public Integer call() {
        PrintStream out = main.out;
        Phases ph = timings ? new Phases() : null;
        RuleConfig cfg = rules == null ? RuleConfig.defaults() : RuleConfig.withOverrides(rules);
        Waivers accepted = waivers == null ? null : Waivers.load(waivers); // a bad file stops here, before the long part
        ClusterData data = DumpLoader.load(dump);
        if (ph != null) ph.end("load+parse");
        Report r = new RulesEngine(cfg).run(data);
        if (accepted != null) r = accepted.apply(r, LocalDate.now());
        if (ph != null) ph.end("rules");
        ReportWriter.Written w = ReportWriter.writeAll(r, outDir, new CoverInfo(customer, site, operator));
        if (ph != null) ph.end("reports");
        Map<Status, Long> c = r.counts();
        out.printf("%s  (%d fail, %d error, %d warn, %s%d pass, %d skip) - %d nodes from %s%n", r.verdict().label(),
                c.get(Status.FAIL), c.get(Status.ERROR), c.get(Status.WARN), c.get(Status.WAIVED) > 0 ? c.get(Status.WAIVED) + " waived, " : "",
                c.get(Status.PASS), c.get(Status.SKIP), data.hosts().size(), dump);
        r.worstFirst().stream().filter(f -> f.status() == Status.FAIL || f.status() == Status.ERROR).limit(15)
                .forEach(f -> out.println("  " + f.status() + " " + f.check() + ": " + f.summary()));
        w.files().forEach(p -> out.println("wrote " + p));
        w.errors().forEach(e -> main.err.println("ibaccept: could not write " + e));
        if (ph != null) ph.print(main.err);
        if (!w.errors().isEmpty()) return Main.USAGE;
        return switch (r.verdict()) {
            case ACCEPTED, ACCEPTED_WITH_WARNINGS, ACCEPTED_WITH_WAIVERS -> Main.ACCEPTED;
            default -> Main.NOT_ACCEPTED;
        };
    }
}
