package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.PlanDiff;
import io.ibaccept.model.ClusterData;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.counters.LinkWindowRow;
import java.util.List;
import java.util.Map;

/**
 * One analysis as the report writers see it: the Analysis itself, and what only rendering needs and several outputs
 * share, drawn once per set of outputs: the operations view of the topology (Slurm names, leaves), the fabric picture
 * and the RDMA figures.
 * writeAll makes one and hands it to every writer; nothing outlives it.
 */
final class ReportFacts {
    private final Analysis analysis;
    private FabricView view;
    private List<Inventory.Item> inventory;
    private FabricSvg.Picture fabricPicture;
    private boolean fabricPictureDrawn;
    private List<PerfSection.Figure> perfFigures;
    private Map<String, List<String>> perfCommands;
    private ReportCounts counts;
    private final java.time.Instant generated;
    private final String dumpFromOutput;

    ReportFacts(Analysis analysis) {
        this(analysis, java.time.Instant.now());
    }

    /** generated: when the outputs are written (the cover shows it in whole seconds). */
    ReportFacts(Analysis analysis, java.time.Instant generated) {
        this(analysis, generated, null);
    }

    /** outDir: where the outputs go, so evidence can link into a dump directory next to them; null: no links. */
    ReportFacts(Analysis analysis, java.time.Instant generated, java.nio.file.Path outDir) {
        this.analysis = analysis;
        this.generated = generated.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        this.dumpFromOutput = dumpFrom(outDir, analysis.data().source());
    }

    private static final java.util.regex.Pattern DUMP_FILE = java.util.regex.Pattern.compile("^((?:fabric|nodes|perftest|collective|burn)/[A-Za-z0-9._@+/-]+?)(?::\\d+)?$");

    /**
     * The dump directory as a relative link from the output directory, when the dump sits next to the report (the two
     * side by side, or one inside the other); null otherwise (elsewhere, a zip, no output directory).
     */
    private static String dumpFrom(java.nio.file.Path outDir, String source) {
        if (outDir == null || source == null || source.isEmpty()) return null;
        try {
            java.nio.file.Path dump = java.nio.file.Path.of(source).toAbsolutePath().normalize();
            if (!java.nio.file.Files.isDirectory(dump)) return null;
            java.nio.file.Path rel = outDir.toAbsolutePath().normalize().relativize(dump);
            int up = 0, names = 0;
            for (java.nio.file.Path p : rel) {
                if (p.toString().equals("..")) up++;
                else names++;
            }
            // the report inside the dump (../..), beside it (../dump) or the dump inside the report's directory (dump)
            boolean near = names == 0 || up <= 1 && names == 1;
            return near ? rel.toString().replace('\\', '/') : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** A relative link to the dump file an evidence line names ("fabric/iblinkinfo.out:12"), or null. */
    String evidenceHref(String where) {
        if (dumpFromOutput == null || where == null) return null;
        java.util.regex.Matcher m = DUMP_FILE.matcher(where.trim());
        if (!m.matches() || m.group(1).contains("..")) return null;
        String base = dumpFromOutput.isEmpty() ? "" : dumpFromOutput + "/";
        StringBuilder href = new StringBuilder();
        for (String seg : (base + m.group(1)).split("/"))
            href.append(href.length() == 0 ? "" : "/").append(java.net.URLEncoder.encode(seg, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20"));
        return href.toString();
    }

    java.time.Instant generated() {
        return generated;
    }

    /** The acceptance contract the dump was judged against, or null: expectations were inferred from the fabric. */
    io.ibaccept.contract.Contract contract() {
        return analysis.contract();
    }

    /** What every host shares, as the checks that state facts passed with it (page 1). */
    java.util.List<String> uniformFacts() {
        return analysis.facts();
    }

    /** The counts every output states (checks, root findings, consequences). */
    synchronized ReportCounts counts() {
        if (counts == null) counts = ReportCounts.of(report());
        return counts;
    }

    Analysis analysis() {
        return analysis;
    }

    Report report() {
        return analysis.report();
    }

    ClusterData data() {
        return analysis.data();
    }

    /** The rules the findings were judged with. */
    RuleConfig rules() {
        return analysis.rules();
    }

    String dumpId() {
        return analysis.dumpId();
    }

    /** The cabling plan comparison of 'analyze --expect', or null. */
    PlanDiff.Result plan() {
        return analysis.planDiff();
    }

    /** The fabric graph the checks judged, or null when the dump has no usable topology with a switch. */
    Fabric fabric() {
        return analysis.fabric();
    }

    List<LinkWindowRow> linkWindow() {
        return analysis.linkWindow();
    }

    synchronized FabricView view() {
        if (view == null) view = new FabricView(data(), fabric());
        return view;
    }

    /** The hardware inventory (HCAs, switches, cables) of the HTML, the PDF and inventory.csv. */
    synchronized List<Inventory.Item> inventory() {
        if (inventory == null) inventory = Inventory.items(this);
        return inventory;
    }

    /** The fabric picture for the HTML and the PDF, or null without a usable topology. */
    synchronized FabricSvg.Picture fabricPicture() {
        if (!fabricPictureDrawn) {
            FabricSvg.Inputs in = FabricSvg.inputs(this);
            fabricPicture = in == null ? null : FabricSvg.layout(in);
            fabricPictureDrawn = true;
        }
        return fabricPicture;
    }

    /** The RDMA performance figures (heat maps, sweeps) for the HTML and the PDF. */
    synchronized List<PerfSection.Figure> perfFigures() {
        perf();
        return perfFigures;
    }

    synchronized Map<String, List<String>> perfCommands() {
        perf();
        return perfCommands;
    }

    private void perf() {
        if (perfFigures != null) return;
        boolean none = data().perftests().isEmpty();
        perfFigures = none ? List.of() : PerfSection.figures(analysis);
        perfCommands = none ? Map.of() : PerfSection.commands(analysis);
    }
}
