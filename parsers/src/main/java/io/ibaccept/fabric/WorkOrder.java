package io.ibaccept.fabric;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/** The work order for the data-centre technician ({@code workorder.csv}): one row per cable to connect, move or check. */
public final class WorkOrder {
    private WorkOrder() {}

    public static final String FILE_NAME = "workorder.csv";

    public static String csv(PlanDiff.Result r) {
        StringWriter w = new StringWriter();
        try (CSVPrinter p = new CSVPrinter(w, CSVFormat.DEFAULT)) {
            p.printRecord("step", "action", "device", "port", "peer_device", "peer_port", "cable_id", "reason", "done");
            for (PlanDiff.Work x : r.workOrder())
                p.printRecord(x.step(), x.action(), cell(x.a()), x.aPort() > 0 ? x.aPort() : "", cell(x.b()), x.bPort() > 0 ? x.bPort() : "",
                        cell(x.cableId()), cell(x.reason()), "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    /** Node names come from the fabric: a leading = + - @ or tab/CR would be a formula in a spreadsheet. */
    static String cell(String s) {
        if (s == null || s.isEmpty()) return "";
        char c = s.charAt(0);
        return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r' ? "'" + s : s;
    }
}
