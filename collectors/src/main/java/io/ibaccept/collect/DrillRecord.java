package io.ibaccept.collect;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;

/**
 * A drill's record in the dump: "key: value" header lines, then "TIME KIND: TEXT" per step with its command's output
 * as "  | " lines. The file is rewritten whole after every step, so a drill that is killed leaves its steps up to the
 * kill; the progress stream gets each step as it happens.
 */
final class DrillRecord {
    private final StringBuilder text = new StringBuilder();
    private final Cmd cmd;
    private final String host;
    private final String commandLine;
    private final PrintStream progress;
    private final Instant startedAt = Instant.now();
    private DumpWriter out;

    DrillRecord(Cmd cmd, String host, String commandLine, PrintStream progress) {
        this.cmd = cmd;
        this.host = host;
        this.commandLine = commandLine;
        this.progress = progress;
        text.append("# ").append(commandLine).append('\n');
    }

    void to(DumpWriter dump) {
        this.out = dump;
    }

    synchronized void header(String key, String value) {
        text.append(key).append(": ").append(value.replace('\n', ' ')).append('\n');
    }

    synchronized void step(String kind, String line, String output) {
        text.append(Instant.now()).append(' ').append(kind).append(": ").append(line.replace('\n', ' ')).append('\n');
        for (String l : output.split("\n")) if (!l.isBlank()) text.append("  | ").append(l).append('\n');
        progress.println("drill " + kind + ": " + line);
        write();
    }

    synchronized void write() {
        if (out == null) return;
        long ms = Duration.between(startedAt, Instant.now()).toMillis();
        out.command(cmd.path(host), new CommandResult(cmd.fileName(), host, commandLine, CommandResult.OK, 0, ms, startedAt.toString(), ""),
                text.toString());
    }

    static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
