package io.ibaccept.collect;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * Fake ssh and srun clients for injection tests: they record their argv (NUL-separated, one call per line of the
 * log) and then do what the real ones do with it, so a payload that slipped through would really run: ssh parses its
 * options up to the host (getopt: stops at '--' or the first non-option) and hands the remaining words, joined by
 * spaces, to the "remote" login shell; srun runs the words after its options directly.
 */
public final class FakeRemote {
    public final Path dir;
    public final Path ssh;
    public final Path srun;
    public final Path log;

    public FakeRemote(Path dir) throws IOException {
        this.dir = dir;
        this.log = dir.resolve("argv.log");
        this.ssh = script("ssh", """
                while [ $# -gt 0 ]; do
                  case "$1" in
                    --) shift; break ;;
                    -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;
                    -*) shift ;;
                    *) break ;;
                  esac
                done
                host=$1; shift
                exec bash -c "$*"
                """);
        this.srun = script("srun", """
                while [ $# -gt 0 ]; do
                  case "$1" in
                    -w|-N|-n|-p) shift 2 ;;
                    -*) shift ;;
                    *) break ;;
                  esac
                done
                exec "$@"
                """);
    }

    private Path script(String name, String body) throws IOException {
        Path p = dir.resolve(name);
        // one call per line even when several fakes log at once: the argv and its newline are written under a lock
        // the "node" has a home of its own: the login shell the collector starts there must not run this machine's
        // profile (a pyenv rehash per login shell serialises on a lock and stalls a parallel collection for minutes)
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.writeString(p, "#!/bin/bash\n{ flock 9; printf '%s\\0' " + "\"$0\" \"$@\" >&9; printf '\\n' >&9; } 9>> '" + log + "'\n"
                + "export HOME='" + home + "'\n" + body, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

    /** Every call: its argv (argv[0] first). */
    public List<List<String>> calls() throws IOException {
        List<List<String>> out = new ArrayList<>();
        if (!Files.exists(log)) return out;
        for (String line : Files.readString(log, StandardCharsets.UTF_8).split("\0\n", -1)) {
            if (line.isEmpty()) continue;
            out.add(List.of(line.split("\0", -1)));
        }
        return out;
    }
}
