package io.ibaccept.parse;

/** Where a value came from: file (relative to the dump) and 1-based line; line 0 means the whole file. */
public record SourceRef(String file, int line) {
    public static SourceRef file(String file) {
        return new SourceRef(file, 0);
    }

    @Override
    public String toString() {
        return line > 0 ? file + ":" + line : file;
    }
}
