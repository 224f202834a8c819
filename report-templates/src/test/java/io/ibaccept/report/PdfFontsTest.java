package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.lowagie.text.pdf.PdfDictionary;
import com.lowagie.text.pdf.PdfName;
import com.lowagie.text.pdf.PdfReader;
import com.lowagie.text.pdf.parser.PdfTextExtractor;
import io.ibaccept.analysis.Analysis;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Names outside Latin-1 (a Cyrillic host, a customer with Latin Extended letters) print in the PDF, in embedded fonts. */
class PdfFontsTest {
    static final String HOST = "узел16-Ω";
    static final CoverInfo COVER = new CoverInfo("Łódź Université – Лаборатория", "Hall ß", "Ørsted");

    @Test
    void namesInAnyScriptTheFontsCoverAreWrittenAndTheFontsAreEmbedded(@TempDir Path tmp) throws Exception {
        Path dump = renamedCopy(ReportRenderingTest.DEMO, tmp.resolve("dump"), "node16", HOST);
        Analysis a = Analysis.of(new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(dump)));
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        PdfReport.render(a, COVER, ReportLayout.DEFAULT, pdf);
        try (PdfReader reader = new PdfReader(pdf.toByteArray())) {
            PdfTextExtractor ex = new PdfTextExtractor(reader);
            StringBuilder text = new StringBuilder();
            for (int p = 1; p <= reader.getNumberOfPages(); p++) text.append(ex.getTextFromPage(p)).append('\n');
            assertThat(text.toString()).contains("Łódź Université – Лаборатория").contains("Ørsted").contains(HOST);
            int fonts = 0;
            for (int i = 1; i < reader.getXrefSize(); i++) {
                if (!(reader.getPdfObject(i) instanceof PdfDictionary d) || !PdfName.FONTDESCRIPTOR.equals(d.get(PdfName.TYPE))) continue;
                fonts++;
                assertThat(d.get(PdfName.FONTFILE2)).as("font %s embedded", d.get(PdfName.FONTNAME)).isNotNull();
            }
            assertThat(fonts).isGreaterThanOrEqualTo(2);
        }
    }

    /** The dump with every occurrence of a host name replaced, in file contents and in paths. */
    static Path renamedCopy(Path from, Path to, String name, String newName) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(p).toString().replace(name, newName));
                if (Files.isDirectory(p)) Files.createDirectories(target);
                else Files.writeString(target, Files.readString(p, StandardCharsets.UTF_8).replace(name, newName));
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return to;
    }
}
