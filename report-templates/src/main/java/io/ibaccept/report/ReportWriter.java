package io.ibaccept.report;

import io.ibaccept.rules.Report;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes every output of an analysis into a directory: report.html, report.pdf, findings.csv, findings.json, junit.xml,
 * inventory.csv, the operations files topology.conf, node-name-map, nhc.conf, drain.sh, and when there is data for
 * them linkwindow.csv (counter window per link) and workorder.csv (cabling plan). Each file is written
 * independently: one that fails is listed in errors and the others are still written.
 */
public final class ReportWriter {
    private ReportWriter() {}

    public record Written(List<Path> files, List<String> errors) {}

    private interface Render {
        void to(OutputStream out) throws IOException;
    }

    private interface RenderText {
        void to(Writer out) throws IOException;
    }

    public static Written write(Report r, Path dir) {
        return writeAll(r, dir, CoverInfo.NONE);
    }

    public static Written writeAll(Report r, Path dir, CoverInfo cover) {
        return writeAll(r, dir, cover, ReportLayout.DEFAULT);
    }

    public static Written writeAll(Report r, Path dir, CoverInfo cover, ReportLayout layout) {
        return writeAll(r, dir, cover, layout, null);
    }

    /**
     * plan: the cabling plan comparison of 'analyze --expect', or null; with it workorder.csv is written and the
     * reports get a work-order section. linkwindow.csv is written when the dump has counter samples.
     */
    public static Written writeAll(Report r, Path dir, CoverInfo cover, ReportLayout layout, io.ibaccept.fabric.PlanDiff.Result plan) {
        List<Path> files = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot create the output directory (" + io.ibaccept.safety.IoMessages.why(e) + ")", e);
        }
        CoverInfo c = cover == null ? CoverInfo.NONE : cover;
        text(dir, "report.html", w -> w.write(HtmlReport.render(r, c, layout, plan)), files, errors);
        bytes(dir, "report.pdf", out -> PdfReport.render(r, c, layout, plan, out), files, errors);
        text(dir, "findings.csv", w -> CsvReport.render(r, w), files, errors);
        bytes(dir, "findings.json", out -> JsonReport.render(r, out), files, errors);
        text(dir, "junit.xml", w -> JunitReport.render(r, w), files, errors);
        text(dir, "inventory.csv", w -> Inventory.renderCsv(r.data(), ReportFacts.of(r.data()).view(), w), files, errors);
        text(dir, "topology.conf", w -> w.write(OpsOutputs.topologyConf(r)), files, errors);
        text(dir, "node-name-map", w -> w.write(OpsOutputs.nodeNameMap(r)), files, errors);
        text(dir, "nhc.conf", w -> w.write(OpsOutputs.nhcConf(r)), files, errors);
        text(dir, "drain.sh", w -> w.write(OpsOutputs.drainSh(r)), files, errors);
        if (plan != null) text(dir, io.ibaccept.fabric.WorkOrder.FILE_NAME, w -> ExtraSections.workOrderCsv(plan, w), files, errors);
        List<io.ibaccept.rules.counters.LinkWindowRow> window;
        try {
            window = ReportFacts.of(r.data()).linkWindow(ExtraSections.cfg(r));
        } catch (RuntimeException e) {
            window = List.of();
            errors.add(dir.resolve("linkwindow.csv") + ": " + e);
        }
        List<io.ibaccept.rules.counters.LinkWindowRow> rows = window;
        if (!rows.isEmpty()) text(dir, "linkwindow.csv", w -> LinkWindowCsv.render(rows, w), files, errors);
        return new Written(files, errors);
    }

    private static void text(Path dir, String name, RenderText render, List<Path> files, List<String> errors) {
        bytes(dir, name, out -> {
            Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8));
            render.to(w);
            w.flush();
        }, files, errors);
    }

    private static void bytes(Path dir, String name, Render render, List<Path> files, List<String> errors) {
        Path p = dir.resolve(name);
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(p))) {
            render.to(out);
            files.add(p);
        } catch (IOException | RuntimeException e) {
            errors.add(p + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        }
    }
}
