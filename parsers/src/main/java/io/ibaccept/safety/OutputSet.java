package io.ibaccept.safety;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A set of outputs that replaces the previous set in a directory as a whole: every file is written into a new
 * staging directory inside it, and only when all are complete are they renamed into place, after which the names of
 * the previous set that this run did not write are removed (a workorder.csv of an earlier run must not sit beside a
 * new ACCEPTED report). A run stopped before that (SIGINT, SIGTERM, a full disk, a failed writer) removes its staging
 * directory and leaves the previous set as it was; a stop during the renames waits for them to finish. Renames
 * replace planted links instead of following them.
 */
public final class OutputSet implements AutoCloseable {
    /** Held while a set is renamed into place; the shutdown hook waits for it. */
    private static final Object COMMIT = new Object();

    private final Path dir;
    private volatile Path staging;
    private final Set<String> names;
    private final Thread hook;
    private boolean committed;
    private boolean abandoned;

    /**
     * The hook is in place before the staging directory exists, and the directory is made under the lock the hook
     * takes: a signal at any point finds either no directory or one the hook removes.
     */
    private OutputSet(Path dir, Set<String> names) throws IOException {
        this.dir = dir;
        this.names = names;
        this.hook = new Thread(this::abandonOnExit, "ibaccept-output-set");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            throw stopped(dir);
        }
        try {
            synchronized (COMMIT) {
                if (abandoned) throw stopped(dir);
                staging = Files.createTempDirectory(dir, STAGING + HOST + "-" + ProcessHandle.current().pid() + "-");
            }
        } catch (IOException e) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs: nothing of this set exists
            }
            throw e;
        }
    }

    private static IOException stopped(Path dir) {
        return new IOException("stopped before the reports were complete: " + dir + " was left as it was");
    }

    /** names: every file a run of this command may write into dir (those of the previous set it does not write are removed). */
    public static OutputSet open(Path dir, Collection<String> names) throws IOException {
        OutputFiles.directory(dir, "");
        for (String n : names) if (!SafePath.isSafeName(n)) throw new IllegalArgumentException("not a file name: " + n);
        removeAbandoned(dir);
        return new OutputSet(dir, Set.copyOf(names));
    }

    public Path dir() {
        return dir;
    }

    /** Where the new set's file of this name is written until {@link #commit}. */
    public Path file(String name) {
        if (!names.contains(name)) throw new IllegalArgumentException(name + " is not one of this set's files");
        return staging.resolve(name);
    }

    /**
     * Puts the written files in place and removes the other names of the set; the final paths, in the order given.
     * Nothing is changed once the JVM is shutting down before this starts (the hook abandoned the set).
     */
    public List<Path> commit(Collection<String> written) throws IOException {
        synchronized (COMMIT) {
            if (abandoned) throw stopped(dir);
            // what would make a rename fail is found before the first one: the set goes in whole or not at all
            for (String n : written) {
                Path target = dir.resolve(n);
                if (Files.isDirectory(target, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    throw new IOException(target + " is a directory: no report was replaced");
            }
            for (String n : written)
                Files.move(file(n), dir.resolve(n), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            for (String n : names) if (!written.contains(n)) Files.deleteIfExists(dir.resolve(n)); // a link itself, not its target
            committed = true;
        }
        return written.stream().map(dir::resolve).toList();
    }

    private void abandonOnExit() {
        synchronized (COMMIT) {
            if (committed || abandoned) return;
            abandoned = true;
        }
        deleteStaging();
        System.err.println("ibaccept: stopped before the reports were complete: " + Printable.of(dir.toString()) + " was left as it was");
    }

    /** Removes the staging directory (and with it an unfinished set). */
    @Override
    public void close() {
        synchronized (COMMIT) {
            if (!committed) abandoned = true;
        }
        deleteStaging();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or has run: it finds the set committed or abandoned
        }
    }

    /** Removes the staging directory; a writer still finishing a file in it (a signal) is waited for a few times. */
    private void deleteStaging() {
        Path staging = this.staging;
        if (staging == null) return; // stopped before it was made
        for (int attempt = 0; attempt < 5 && Files.exists(staging, java.nio.file.LinkOption.NOFOLLOW_LINKS); attempt++) {
            deleteTree(staging);
            if (attempt > 0) sleep(50);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // the next attempt takes it
                }
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // a hidden .ibaccept-new-* directory is all that can remain; the next run removes it
        }
    }

    /**
     * Staging directories of runs killed outright (SIGKILL, power loss): each is named after the host and process that
     * made it, so one of this host whose process is gone (or whose PID now belongs to a process started after the
     * directory was last written) is removed at once; one of another host sharing the directory (NFS), or of an older
     * version without the names, once it is a day old. Only directories of this user with a staging name are removed,
     * and a link is never followed.
     */
    static void removeAbandoned(Path dir) {
        java.time.Instant dayAgo = java.time.Instant.now().minus(java.time.Duration.ofDays(1));
        String me = System.getProperty("user.name");
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(p -> p.getFileName().toString().startsWith(STAGING)).toList()) {
                try {
                    var a = Files.readAttributes(p, java.nio.file.attribute.PosixFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
                    if (!a.isDirectory() || !a.owner().getName().equals(me)) continue;
                    java.time.Instant written = a.lastModifiedTime().toInstant();
                    if (written.isBefore(dayAgo) || deadHere(p.getFileName().toString(), written)) deleteTree(p);
                } catch (IOException | UnsupportedOperationException e) {
                    // gone meanwhile, or not ours to judge
                }
            }
        } catch (IOException e) {
            // nothing to tidy
        }
    }

    private static final String STAGING = ".ibaccept-new-";
    private static final java.util.regex.Pattern STAGING_NAME = java.util.regex.Pattern.compile("\\.ibaccept-new-(.+)-(\\d{1,18})-\\d+");
    /** This host's name as the kernel has it (a file name's characters only), to tell its staging directories from another host's. */
    static final String HOST = hostName();

    private static String hostName() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip().replaceAll("[^A-Za-z0-9.-]", "_");
            if (!h.isEmpty()) return h;
        } catch (IOException | RuntimeException e) {
            // not Linux: below
        }
        String env = System.getenv("HOSTNAME");
        return env == null || env.isBlank() ? "localhost" : env.strip().replaceAll("[^A-Za-z0-9.-]", "_");
    }

    /** Whether a staging directory of this host was made by a process that no longer runs. */
    static boolean deadHere(String name, java.time.Instant lastWritten) {
        java.util.regex.Matcher m = STAGING_NAME.matcher(name);
        if (!m.matches() || !m.group(1).equals(HOST)) return false;
        long pid = Long.parseLong(m.group(2));
        if (pid == ProcessHandle.current().pid()) return false;
        var process = ProcessHandle.of(pid);
        if (process.isEmpty()) return true;
        // the PID was given again to a process started after the directory was last written: not its writer
        // (the start time the kernel gives is whole seconds of boot time plus ticks: a margin, so a live writer is never taken for one)
        return process.get().info().startInstant().map(started -> started.isAfter(lastWritten.plusSeconds(10))).orElse(false);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
