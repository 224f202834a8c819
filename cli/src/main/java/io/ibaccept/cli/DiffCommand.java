package io.ibaccept.cli;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.analysis.AnalysisDiff;
import io.ibaccept.fabric.DumpDiff;
import io.ibaccept.fabric.NodeNameMap;
import io.ibaccept.report.DiffReport;
import io.ibaccept.report.ReportWriter;
import io.ibaccept.rules.RuleConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "diff", sortOptions = false,
        description = {"What changed between two dumps, e.g. since the accepted handover: topology (switches, cables added, removed, moved), "
                + "link speed/width, HCA firmware, OFED, perftest regressions, and findings new or cleared.",
                "Writes diff.csv, diff.html and diff.pdf. The exit code says whether something changed (it is not a verdict: analyze the new dump for that)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:nothing changed", "1:something changed", "2:bad usage, unusable input, or a file that could not be written",
                "3:internal error (a bug: report it with the dump)"})
final class DiffCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "OLD", description = "the earlier dump (directory or .zip), e.g. the accepted one")
    Path before;

    @Parameters(index = "1", paramLabel = "NEW", description = "the later dump")
    Path after;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "directory for diff.csv, diff.html, diff.pdf")
    Path outDir;

    @Option(names = "--rules", paramLabel = "FILE", description = "thresholds for judging both dumps (as for analyze)")
    Path rules;

    @Option(names = "--node-name-map", paramLabel = "FILE", description = "names for GUIDs (ibnetdiscover/opensm node-name-map format)")
    Path nodeNameMap;

    @Option(names = "--contract", paramLabel = "FILE",
            description = "the acceptance contract: both dumps are judged against it, and what in NEW differs from it is listed (category contract)")
    Path contract;

    @Override
    public Integer call() throws Exception {
        RuleConfig cfg = rules == null ? RuleConfig.defaults() : RuleConfig.withOverrides(rules);
        NodeNameMap names = nodeNameMap == null ? null : AnalyzeCommand.loadNames(nodeNameMap);
        io.ibaccept.contract.Contract k = contract == null ? null : AnalyzeCommand.loadContract(contract);
        cfg = Analysis.rulesFor(cfg, k);
        Analysis.Options o = Analysis.Options.of(cfg).withNames(names).withContract(k);
        Analysis old = Analysis.of(before, o);
        Analysis now = Analysis.of(after, o);
        List<DumpDiff.Change> changes = AnalysisDiff.compare(old, now);
        ReportWriter.Written w = DiffReport.write(old, now, changes, outDir);
        main.out.println(changes.size() + " change(s) from " + before + " to " + after);
        String unrelated = DiffReport.unrelated(old, now);
        if (unrelated != null) main.err.println("ibaccept: warning: " + unrelated);
        DiffReport.ordered(changes).stream().limit(20).forEach(c -> main.out.println("  " + c.category() + " " + c.object() + ": " + c.before() + " -> " + c.after()));
        if (changes.size() > 20) main.out.println("  ... " + (changes.size() - 20) + " more in diff.csv");
        w.files().forEach(p -> main.out.println("wrote " + p));
        w.errors().forEach(e -> main.err.println("ibaccept: could not write " + e));
        if (!w.errors().isEmpty()) main.err.println("ibaccept: no report was replaced: " + outDir + " keeps the previous complete set, if any");
        if (!w.errors().isEmpty()) return Main.USAGE;
        // what differs from the contract is listed, but only a change between the two dumps is a change
        return changes.stream().allMatch(c -> c.category().startsWith("contract")) ? 0 : Main.CHANGED;
    }
}
