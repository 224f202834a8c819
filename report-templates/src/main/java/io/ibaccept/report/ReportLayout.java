package io.ibaccept.report;

/**
 * Bounds that keep HTML and PDF readable on large clusters (CSV and JSON always list everything).
 * aggregateAbove: with more problem nodes than this, the per-node table becomes per-check and per-leaf aggregates;
 * maxEvidence: evidence lines shown per finding group; maxObjectsText: characters of an "affects" list.
 */
public record ReportLayout(int aggregateAbove, int maxEvidence, int maxObjectsText) {
    public static final ReportLayout DEFAULT = new ReportLayout(300, 8, 600);

    public ReportLayout {
        if (aggregateAbove < 0 || maxEvidence < 1 || maxObjectsText < 80)
            throw new IllegalArgumentException("report layout bounds out of range");
    }
}
