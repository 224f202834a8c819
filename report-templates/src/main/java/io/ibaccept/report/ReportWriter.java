package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.fabric.PlanDiff;
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
 * ibaccept.prom, inventory.csv, the operations files topology.conf, topology.yaml, node-name-map, nhc.conf, drain.sh,
 * and when there is data for them linkwindow.csv (counter window per link) and workorder.csv (cabling plan). The files replace the previous run's
 * as one set ({@link io.ibaccept.safety.OutputSet}): when one cannot be written, none is put in place, the errors say
 * why, and the directory keeps the previous complete set.
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

    /** The metrics for node_exporter's textfile collector, which reads the files ending in .prom. */
    public static final String PROM = "ibaccept.prom";

    /** The workorder.csv of 'analyze --expect': the cables to connect, move or check. */
    public static final String WORK_ORDER = "workorder.csv";

    public static Written write(Analysis a, Path dir) {
        return writeAll(a, dir, CoverInfo.NONE, ReportLayout.DEFAULT);
    }

    /**
     * Every output of the analysis; with a cabling plan comparison workorder.csv is written and the reports get a
     * work-order section, with counter samples linkwindow.csv.
     */
    public static Written writeAll(Analysis a, Path dir, CoverInfo cover, ReportLayout layout) {
        try (io.ibaccept.safety.OutputSet set = openSet(dir, ORDER)) {
            ReportFacts facts = new ReportFacts(a, java.time.Instant.now(), dir);
            Report r = a.report();
            PlanDiff.Result plan = a.planDiff();
            CoverInfo c = cover == null ? CoverInfo.NONE : cover;
            List<Task> tasks = new ArrayList<>();
            // longest first (the PDF at the demo size, the HTML on large fabrics), then the rest: two threads take them in
            // turn, and what several outputs draw alike is drawn once in ReportFacts by whichever asks first
            tasks.add(bytes(set, "report.pdf", out -> PdfReport.render(facts, c, layout, out)));
            tasks.add(text(set, "report.html", w -> w.write(HtmlReport.render(facts, c, layout))));
            tasks.add(bytes(set, "findings.json", out -> JsonReport.render(a, out)));
            tasks.add(text(set, "findings.csv", w -> CsvReport.render(r, w)));
            tasks.add(text(set, "junit.xml", w -> JunitReport.render(r, w)));
            tasks.add(text(set, PROM, w -> PromMetrics.render(facts, w)));
            tasks.add(text(set, "inventory.csv", w -> Inventory.renderCsv(facts, w)));
            tasks.add(text(set, "topology.conf", w -> w.write(OpsOutputs.topologyConf(facts))));
            tasks.add(text(set, "topology.yaml", w -> w.write(TopologyYaml.render(facts))));
            tasks.add(text(set, "node-name-map", w -> w.write(OpsOutputs.nodeNameMap(facts))));
            tasks.add(text(set, "nhc.conf", w -> w.write(OpsOutputs.nhcConf(facts))));
            tasks.add(text(set, "drain.sh", w -> w.write(OpsOutputs.drainSh(facts))));
            if (plan != null) tasks.add(text(set, WORK_ORDER, w -> ExtraSections.workOrderCsv(plan, w)));
            tasks.add(new Task("linkwindow.csv", set.file("linkwindow.csv"), o -> {
                List<io.ibaccept.rules.counters.LinkWindowRow> rows = a.linkWindow();
                if (rows.isEmpty()) return false; // no counter samples: no file
                Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(o.get(), StandardCharsets.UTF_8));
                LinkWindowCsv.render(rows, w);
                w.flush();
                return true;
            }));
            runOnTwoThreads(tasks);
            List<String> written = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            // listed in the order the files were always written
            for (String name : ORDER)
                for (Task t : tasks)
                    if (t.name.equals(name)) {
                        if (t.written) written.add(name);
                        if (t.error != null) errors.add(dir.resolve(name) + ": " + t.error);
                    }
            return finish(set, written, errors);
        }
    }

    /** The set of outputs a run writes into dir (see {@link io.ibaccept.safety.OutputSet}). */
    static io.ibaccept.safety.OutputSet openSet(Path dir, List<String> names) {
        try {
            return io.ibaccept.safety.OutputSet.open(dir, names);
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot create the output directory (" + io.ibaccept.safety.IoMessages.why(e) + ")", e);
        }
    }

    /** Puts the written files in place, unless one failed: then nothing is, and the errors say why. */
    static Written finish(io.ibaccept.safety.OutputSet set, List<String> written, List<String> errors) {
        if (!errors.isEmpty()) return new Written(List.of(), errors);
        try {
            return new Written(set.commit(written), List.of());
        } catch (IOException e) {
            return new Written(List.of(), List.of(set.dir() + ": " + io.ibaccept.safety.IoMessages.why(e)));
        }
    }

    /**
     * Starts, on a background thread, what the first report of a fresh JVM pays before writing a byte: the PDF's
     * embedded fonts (each TrueType file is parsed once per JVM), the classes of the PDF,
     * HTML and JSON writers and their first compilations. A one-shot analyze calls this before it loads the dump, so
     * the cost overlaps the single-threaded load instead of adding to the reports phase. Best effort: it writes
     * nothing and anything it meets is ignored (the real writers report their own errors).
     */
    public static void warmUp() {
        if (Runtime.getRuntime().availableProcessors() < 2) return;
        Thread t = new Thread(() -> {
            try {
                com.lowagie.text.Document doc = new com.lowagie.text.Document();
                com.lowagie.text.pdf.PdfWriter.getInstance(doc, OutputStream.nullOutputStream());
                doc.open();
                com.lowagie.text.pdf.PdfPTable table = new com.lowagie.text.pdf.PdfPTable(2);
                for (com.lowagie.text.Font font : new com.lowagie.text.Font[] {PdfFonts.sans(8), PdfFonts.bold(8), PdfFonts.mono(8)})
                    table.addCell(new com.lowagie.text.pdf.PdfPCell(new com.lowagie.text.Phrase("warm-up", font)));
                table.addCell("warm-up");
                doc.add(table);
                doc.close();
                HtmlReport.warmUp();
                try (var g = new com.fasterxml.jackson.core.JsonFactory().createGenerator(OutputStream.nullOutputStream())) {
                    g.useDefaultPrettyPrinter();
                    g.writeStartObject();
                    g.writeStringField("warm", "up");
                    g.writeEndObject();
                }
            } catch (Exception | LinkageError ignored) {
                // best effort: the writers themselves report what fails
            }
        }, "ibaccept-warm-up");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }

    private static final List<String> ORDER = List.of("report.html", "report.pdf", "findings.csv", "findings.json", "junit.xml", PROM,
            "inventory.csv", "topology.conf", "topology.yaml", "node-name-map", "nhc.conf", "drain.sh", WORK_ORDER, "linkwindow.csv");

    private interface Body {
        /** Writes the file through out.get() (opened on first use); false when there is nothing to write. */
        boolean write(java.util.function.Supplier<OutputStream> out) throws IOException;
    }

    /** One output file: what writes it, and afterwards whether it was written or why not. */
    private static final class Task {
        final String name;
        final Path path;
        final Body body;
        boolean written;
        String error;
        Throwable fatal; // not a failed file (out of memory...): rethrown by writeAll

        Task(String name, Path path, Body body) {
            this.name = name;
            this.path = path;
            this.body = body;
        }

        void run() {
            OutputStream[] opened = new OutputStream[1];
            try {
                try {
                    written = body.write(() -> {
                        if (opened[0] == null) {
                            try {
                                opened[0] = new java.io.BufferedOutputStream(Files.newOutputStream(path));
                            } catch (IOException e) {
                                throw new OpenFailed(e);
                            }
                        }
                        return opened[0];
                    });
                } finally {
                    if (opened[0] != null) opened[0].close();
                }
            } catch (IOException | RuntimeException e) {
                written = false;
                Throwable why = e instanceof OpenFailed ? e.getCause() : e;
                error = io.ibaccept.safety.IoMessages.why(why);
            } catch (Throwable t) { // rethrown on the caller's thread, as if written there
                fatal = t;
            }
        }
    }

    private static final class OpenFailed extends UncheckedIOException {
        OpenFailed(IOException e) {
            super(e);
        }
    }

    /** Runs the tasks on this thread and one more (when there is a second CPU), each task once, and waits for all. */
    private static void runOnTwoThreads(List<Task> tasks) {
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        Runnable worker = () -> {
            for (int i; (i = next.getAndIncrement()) < tasks.size(); ) tasks.get(i).run();
        };
        Thread second = null;
        if (Runtime.getRuntime().availableProcessors() > 1) {
            second = new Thread(worker, "ibaccept-reports");
            second.setDaemon(true);
            second.start();
        }
        worker.run();
        boolean interrupted = false;
        while (second != null) {
            try {
                second.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the files under way are still finished: no report is left half-written by this
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        for (Task t : tasks) {
            if (t.fatal instanceof Error e) throw e;
            if (t.fatal instanceof RuntimeException e) throw e;
        }
    }

    private static Task text(io.ibaccept.safety.OutputSet set, String name, RenderText render) {
        return bytes(set, name, out -> {
            Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8));
            render.to(w);
            w.flush();
        });
    }

    private static Task bytes(io.ibaccept.safety.OutputSet set, String name, Render render) {
        return new Task(name, set.file(name), out -> {
            render.to(out.get());
            return true;
        });
    }
}
