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

/** Writes report.html, report.pdf and findings.csv into a directory. Each format is written independently. */
public final class ReportWriter {
    private ReportWriter() {}

    public record Written(List<Path> files, List<String> errors) {}

    public static Written write(Report r, Path dir) {
        List<Path> files = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot create the output directory (" + e.getClass().getSimpleName() + ")", e);
        }
        Path html = dir.resolve("report.html");
        try {
            Files.writeString(html, HtmlReport.render(r), StandardCharsets.UTF_8);
            files.add(html);
        } catch (IOException | RuntimeException e) {
            errors.add(html + ": " + e.getMessage());
        }
        Path pdf = dir.resolve("report.pdf");
        try (OutputStream out = Files.newOutputStream(pdf)) {
            PdfReport.render(r, out);
            files.add(pdf);
        } catch (IOException | RuntimeException e) {
            errors.add(pdf + ": " + e.getMessage());
        }
        Path csv = dir.resolve("findings.csv");
        try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            CsvReport.render(r, w);
            files.add(csv);
        } catch (IOException | RuntimeException e) {
            errors.add(csv + ": " + e.getMessage());
        }
        return new Written(files, errors);
    }
}
