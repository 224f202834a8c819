package io.ibaccept.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of collect/rdma on stderr. The collector and the perftest runner print one line per finished step; on a
 * terminal those lines drive a progress bar with ETA (lines worth reading, e.g. a failed command, are still printed
 * above it); when stderr is not a terminal (CI, a log file, tests) the lines go through unchanged.
 */
final class Progress implements AutoCloseable {
    private static final Pattern LEADING_COUNT = Pattern.compile("^\\[[^]]*\\]\\s*");
    private static final Pattern OF_TOTAL = Pattern.compile("\\d+/(\\d+)");
    private final PrintStream lines;
    private final ProgressBar bar;

    /**
     * step: matches a line that reports one finished step; if it has a group 1, the step line is only printed when that
     * group is not "ok".
     */
    Progress(String task, long total, Pattern step, PrintStream err, boolean terminal) {
        this(task, total, step, err, err, terminal);
    }

    /** raw: where the bar and its cursor movements go (the terminal under err, which escapes what it prints). */
    Progress(String task, long total, Pattern step, PrintStream err, PrintStream raw, boolean terminal) {
        if (!terminal) {
            lines = err;
            bar = null;
            return;
        }
        // total <= 0: not known up front (burn plans its rounds from the topology it collects); the first
        // "N/M" step line sets it
        bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total > 0 ? total : -1).setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(500).setConsumer(new ConsoleProgressBarConsumer(raw)).build();
        lines = new PrintStream(new LineSplitter(line -> {
            Matcher m = step.matcher(line);
            if (m.find()) {
                if (bar.getMax() <= 0) {
                    Matcher of = OF_TOTAL.matcher(line);
                    if (of.find()) bar.maxHint(Long.parseLong(of.group(1)));
                }
                bar.step();
                String what = LEADING_COUNT.matcher(line.strip()).replaceFirst("").replaceAll("\\s+", " ");
                // short, so the bar keeps its width; escaped, as the bar draws on the terminal itself (names come from the fabric)
                bar.setExtraMessage(io.ibaccept.safety.Printable.of(what.length() > 32 ? what.substring(0, 32) : what));
                if (m.groupCount() == 0 || "ok".equals(m.group(1))) return;
            }
            synchronized (raw) {
                raw.print("\r\033[K"); // clear the bar's line; it is redrawn below at the next update
                raw.flush();
                err.println(line); // the line itself may come from a dump or a remote tool: escaped
                err.flush();
            }
        }), true, StandardCharsets.UTF_8);
    }

    /** err: the command's escaped stderr; the bar draws on the terminal underneath it. */
    static Progress open(String task, long total, Pattern step, PrintStream err) {
        PrintStream raw = err instanceof Console c ? c.raw() : err;
        return new Progress(task, total, step, err, raw, raw == System.err && System.console() != null);
    }

    /** Where the worker prints its progress lines. */
    PrintStream lines() {
        return lines;
    }

    @Override
    public void close() {
        if (bar == null) return;
        lines.flush();
        bar.close();
    }

    /** Hands complete lines to a consumer. */
    private static final class LineSplitter extends OutputStream {
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        private final Consumer<String> sink;

        LineSplitter(Consumer<String> sink) {
            this.sink = sink;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                sink.accept(buf.toString(StandardCharsets.UTF_8));
                buf.reset();
            } else buf.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) write(b[i]);
        }
    }
}
