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
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot create the output directory (" + io.ibaccept.safety.IoMessages.why(e) + ")", e);
        }
        CoverInfo c = cover == null ? CoverInfo.NONE : cover;
        // The HTML report is rendered on a second thread while this one writes the PDF and the rest: the two reports
        // are most of the time and share their facts through ReportFacts (computed once, by whichever asks first).
        Out html = new Out();
        Thread second = new Thread(() -> {
            try {
                text(dir, "report.html", w -> w.write(HtmlReport.render(r, c, layout, plan)), html);
            } catch (Throwable t) { // rethrown on the caller's thread below, as if written there
                html.fatal = t;
            }
        }, "ibaccept-html");
        second.setDaemon(true);
        boolean parallel = Runtime.getRuntime().availableProcessors() > 1;
        if (parallel) second.start();
        else second.run();
        Out rest = new Out();
        bytes(dir, "report.pdf", out -> PdfReport.render(r, c, layout, plan, out), rest);
        text(dir, "findings.csv", w -> CsvReport.render(r, w), rest);
        bytes(dir, "findings.json", out -> JsonReport.render(r, out), rest);
        text(dir, "junit.xml", w -> JunitReport.render(r, w), rest);
        text(dir, "inventory.csv", w -> Inventory.renderCsv(r.data(), ReportFacts.of(r.data()).view(), w), rest);
        text(dir, "topology.conf", w -> w.write(OpsOutputs.topologyConf(r)), rest);
        text(dir, "node-name-map", w -> w.write(OpsOutputs.nodeNameMap(r)), rest);
        text(dir, "nhc.conf", w -> w.write(OpsOutputs.nhcConf(r)), rest);
        text(dir, "drain.sh", w -> w.write(OpsOutputs.drainSh(r)), rest);
        if (plan != null) text(dir, io.ibaccept.fabric.WorkOrder.FILE_NAME, w -> ExtraSections.workOrderCsv(plan, w), rest);
        List<io.ibaccept.rules.counters.LinkWindowRow> window;
        try {
            window = ReportFacts.of(r.data()).linkWindow(ExtraSections.cfg(r));
        } catch (RuntimeException e) {
            window = List.of();
            rest.errors.add(dir.resolve("linkwindow.csv") + ": " + e);
        }
        List<io.ibaccept.rules.counters.LinkWindowRow> rows = window;
        if (!rows.isEmpty()) text(dir, "linkwindow.csv", w -> LinkWindowCsv.render(rows, w), rest);
        if (parallel) {
            boolean interrupted = false;
            while (true) {
                try {
                    second.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the HTML is still written: a report is never left half-done by this
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
        }
        if (html.fatal instanceof Error e) throw e;
        if (html.fatal instanceof RuntimeException e) throw e;
        // same order as when written one after the other: report.html first
        List<Path> files = new ArrayList<>(html.files);
        files.addAll(rest.files);
        List<String> errors = new ArrayList<>(html.errors);
        errors.addAll(rest.errors);
        return new Written(files, errors);
    }

    /** What one thread wrote and what failed. */
    private static final class Out {
        final List<Path> files = new ArrayList<>();
        final List<String> errors = new ArrayList<>();
        Throwable fatal; // what is not a failed file (out of memory...): thrown by writeAll
    }

    private static void text(Path dir, String name, RenderText render, Out o) {
        bytes(dir, name, out -> {
            Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8));
            render.to(w);
            w.flush();
        }, o);
    }

    private static void bytes(Path dir, String name, Render render, Out o) {
        Path p = dir.resolve(name);
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(p))) {
            render.to(out);
            o.files.add(p);
        } catch (IOException | RuntimeException e) {
            o.errors.add(p + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        }
    }
}
