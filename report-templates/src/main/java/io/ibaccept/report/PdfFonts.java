package io.ibaccept.report;

import com.lowagie.text.Font;
import com.lowagie.text.pdf.BaseFont;

import java.awt.Color;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The fonts of every PDF we write: Liberation Sans and Liberation Mono (SIL Open Font License, from openpdf-fonts-extra),
 * embedded as subsets with Identity-H encoding. The base-14 fonts only know WinAnsi, so a host or switch name in
 * Greek, Cyrillic or Latin Extended would print as nothing; these cover those scripts, and the PDF carries only the
 * glyphs it uses. Loaded once per JVM: a BaseFont is shared by documents, each writer keeps its own subset.
 */
final class PdfFonts {
    private PdfFonts() {}

    static final BaseFont SANS = load("LiberationSans-Regular.ttf");
    static final BaseFont SANS_BOLD = load("LiberationSans-Bold.ttf");
    static final BaseFont MONO = load("LiberationMono-Regular.ttf");

    static Font sans(float size) {
        return new Font(SANS, size, Font.NORMAL);
    }

    static Font bold(float size) {
        return new Font(SANS_BOLD, size, Font.NORMAL);
    }

    static Font bold(float size, Color color) {
        return new Font(SANS_BOLD, size, Font.NORMAL, color);
    }

    static Font sans(float size, Color color) {
        return new Font(SANS, size, Font.NORMAL, color);
    }

    static Font mono(float size) {
        return new Font(MONO, size, Font.NORMAL);
    }

    private static BaseFont load(String file) {
        try (InputStream in = PdfFonts.class.getResourceAsStream("/liberation/" + file)) {
            if (in == null) throw new IllegalStateException("font " + file + " missing from the classpath (openpdf-fonts-extra)");
            return BaseFont.createFont(file, BaseFont.IDENTITY_H, BaseFont.EMBEDDED, true, in.readAllBytes(), null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
