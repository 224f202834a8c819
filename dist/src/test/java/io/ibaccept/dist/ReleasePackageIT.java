package io.ibaccept.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release as a user gets it: the tarball unpacked and the .deb unpacked (dpkg-deb -x, as dpkg installs it), each run
 * on the demo dump where no JDK, Maven or java is on the PATH. The PATH holds only the tools the launcher calls.
 */
@Tag("package")
class ReleasePackageIT {
    static final Path TARBALL = Path.of(System.getProperty("ibaccept.tarball"));
    static final Path DEB = Path.of(System.getProperty("ibaccept.deb"));
    static final String VERSION = System.getProperty("ibaccept.version");
    static final Path DEMO = Path.of(System.getProperty("ibaccept.demo")).toAbsolutePath();
    static final Path GOLDEN = Path.of(System.getProperty("ibaccept.golden"));
    /** What the build wrote for the version command: the commit the tests run on. */
    static final Path COMMIT = Path.of(System.getProperty("ibaccept.commit"));

    /** What the launcher runs besides bash's builtins (readlink: through a link such as /usr/bin/ibaccept). */
    static final List<String> LAUNCHER_TOOLS = List.of("bash", "readlink", "stat", "cksum", "mkdir", "mv", "rm");

    /** The module list is kept by hand: a dependency that needs one more module must fail here, not on a login node. */
    @Test
    void theRuntimeHoldsEveryModuleTheJarNeeds(@TempDir Path tmp) throws Exception {
        String jdeps = Path.of(System.getProperty("java.home"), "bin", "jdeps").toString();
        Run r = exec(List.of(jdeps, "--print-module-deps", "--ignore-missing-deps", "--multi-release", "17", System.getProperty("ibaccept.jar")), Map.of(), tmp);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(List.of(System.getProperty("ibaccept.modules").split(","))).containsAll(List.of(r.out().strip().split(",")));
    }

    @Test
    void theTarballRunsOnItsOwnRuntime(@TempDir Path tmp) throws Exception {
        Path opt = Files.createDirectories(tmp.resolve("opt"));
        assertThat(exec(List.of("tar", "-xzf", TARBALL.toString(), "-C", opt.toString()), Map.of(), tmp).code()).isZero();
        Path install = opt.resolve("ibaccept-" + VERSION);
        assertThat(install.resolve("bin/ibaccept")).isExecutable();
        assertThat(install.resolve("lib/ibaccept.jar")).isRegularFile();
        assertThat(install.resolve("runtime/bin/java")).isExecutable();
        // the JDK spawns processes (collect, the perftest runs) through it
        assertThat(install.resolve("runtime/lib/jspawnhelper")).isExecutable();
        assertThat(install.resolve("runtime/bin/javac")).doesNotExist();
        String modules = Files.readString(install.resolve("runtime/release"));
        assertThat(modules).contains("jdk.crypto.cryptoki").contains("java.desktop").doesNotContain("jdk.compiler");
        assertThat(install.resolve("runtime/conf/security/nss.cfg")).isRegularFile();

        Map<String, String> env = env(tmp);
        Run version = exec(List.of(install.resolve("bin/ibaccept").toString(), "--version"), env, tmp);
        assertThat(version.code()).as(version.err()).isZero();
        assertThat(version.out()).startsWith("ibaccept " + VERSION + " (commit " + Files.readString(COMMIT).strip() + ")\nJava 17");

        Path cache = Path.of(env.get("HOME"), ".cache", "ibaccept");
        analyzesTheDemoAndRecordsThenMapsTheArchive(install.resolve("bin/ibaccept"), env, cache, tmp);

        // a release never builds: without its jar it says so, and runs no Maven
        Files.move(install.resolve("lib/ibaccept.jar"), tmp.resolve("moved.jar"));
        Run broken = exec(List.of(install.resolve("bin/ibaccept").toString(), "--version"), env, tmp);
        assertThat(broken.code()).isEqualTo(3);
        assertThat(broken.err()).isEqualTo("ibaccept: " + install.resolve("lib/ibaccept.jar") + " is missing: the installation is incomplete\n");
    }

    @Test
    void theDebInstallsUnderUsrLibAndRunsThroughItsLinkFromAReadOnlyDirectory(@TempDir Path tmp) throws Exception {
        assumeTrue(onPath("dpkg-deb"), "dpkg-deb is not installed");
        Run fields = exec(List.of("dpkg-deb", "-f", DEB.toString(), "Package", "Architecture", "Depends"), Map.of(), tmp);
        assertThat(fields.out()).isEqualTo("Package: ibaccept\nArchitecture: amd64\nDepends: libc6 (>= 2.34), libgcc-s1 (>= 3.0), libstdc++6 (>= 5), zlib1g (>= 1:1.2.2)\n");
        Path root = Files.createDirectories(tmp.resolve("root"));
        Run unpack = exec(List.of("dpkg-deb", "-x", DEB.toString(), root.toString()), Map.of(), tmp);
        assertThat(unpack.code()).as(unpack.err()).isZero();
        Path link = root.resolve("usr/bin/ibaccept");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readSymbolicLink(link)).isEqualTo(Path.of("../lib/ibaccept/bin/ibaccept"));
        Path install = root.resolve("usr/lib/ibaccept");
        assertThat(install.resolve("runtime/bin/java")).isExecutable();
        assertThat(install.resolve("runtime/lib/jspawnhelper")).isExecutable();

        Set<Path> installed = tree(install);
        Map<String, String> env = env(tmp);
        Path cache = Files.createDirectories(tmp.resolve("xdg-cache"));
        env.put("XDG_CACHE_HOME", cache.toString());
        setWritable(root, false);
        try {
            analyzesTheDemoAndRecordsThenMapsTheArchive(link, env, cache.resolve("ibaccept"), tmp);
        } finally {
            setWritable(root, true);
        }
        assertThat(tree(install)).as("the install directory is left as installed").isEqualTo(installed);
    }

    /** The first analyze records the class-data archive in the cache, the second maps it; both give the golden findings. */
    private static void analyzesTheDemoAndRecordsThenMapsTheArchive(Path launcher, Map<String, String> env, Path cache, Path tmp) throws Exception {
        Run first = exec(List.of(launcher.toString(), "analyze", DEMO.toString(), "-o", tmp.resolve("out1").toString()), env, tmp);
        assertThat(first.code()).as(first.err()).isEqualTo(1); // the demo is not accepted
        assertReports(tmp.resolve("out1"));
        List<Path> archives;
        try (Stream<Path> s = Files.list(cache)) {
            archives = s.collect(Collectors.toList());
        }
        assertThat(archives).hasSize(1);
        assertThat(archives.get(0).getFileName().toString()).matches("ibaccept-\\d+-\\d+\\.jsa");

        Path classLog = tmp.resolve("classes.log");
        Map<String, String> logged = new HashMap<>(env);
        logged.put("IBACCEPT_JAVA_OPTS", "-Xlog:class+load=info:file=" + classLog);
        Run second = exec(List.of(launcher.toString(), "analyze", DEMO.toString(), "-o", tmp.resolve("out2").toString()), logged, tmp);
        assertThat(second.code()).as(second.err()).isEqualTo(1);
        assertReports(tmp.resolve("out2"));
        // the application's classes come from the archive the bundled runtime recorded
        assertThat(Files.readString(classLog)).contains("io.ibaccept.cli.Main source: shared objects file (top)");
    }

    private static void assertReports(Path out) throws IOException, InterruptedException {
        assertThat(Files.readString(out.resolve("findings.csv"))).isEqualTo(Files.readString(GOLDEN));
        assertThat(Files.readString(out.resolve("report.html"))).startsWithIgnoringCase("<!doctype html>").contains("NOT ACCEPTED");
        byte[] pdf = Files.readAllBytes(out.resolve("report.pdf"));
        assertThat(new String(pdf, 0, 5, StandardCharsets.US_ASCII)).isEqualTo("%PDF-");
        if (onPath("pdftotext")) { // poppler-utils: .ci/run installs it
            Run text = exec(List.of("pdftotext", out.resolve("report.pdf").toString(), "-"), Map.of(), out);
            assertThat(text.code()).as(text.err()).isZero();
            assertThat(text.out()).contains("NOT ACCEPTED").contains("page 1 of ");
        }
    }

    /** A PATH of copies of the launcher's tools only (no java, javac or mvn), a HOME of its own, nothing else inherited. */
    private static Map<String, String> env(Path tmp) throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("path-bin"));
        for (String tool : LAUNCHER_TOOLS) {
            Path copy = bin.resolve(tool);
            if (!Files.exists(copy)) Files.copy(which(tool), copy, StandardCopyOption.COPY_ATTRIBUTES);
        }
        Map<String, String> env = new HashMap<>();
        env.put("PATH", bin.toString());
        env.put("HOME", Files.createDirectories(tmp.resolve("home")).toString());
        env.put("TMPDIR", tmp.toString());
        return env;
    }

    private static Path which(String tool) {
        for (String dir : System.getenv("PATH").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, tool);
            if (Files.isExecutable(p)) return p.toAbsolutePath();
        }
        throw new IllegalStateException(tool + " is not on the PATH");
    }

    private static boolean onPath(String tool) {
        try {
            which(tool);
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    private static Set<Path> tree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.map(dir::relativize).collect(Collectors.toSet());
        }
    }

    /** Read-only as an installed /usr is for a user (root still writes: the test then checks nothing was written). */
    private static void setWritable(Path dir, boolean writable) throws IOException {
        List<Path> all;
        try (Stream<Path> s = Files.walk(dir)) {
            all = s.filter(p -> !Files.isSymbolicLink(p)).collect(Collectors.toCollection(ArrayList::new));
        }
        for (Path p : all) {
            Set<PosixFilePermission> perms = EnumSet.copyOf(Files.getPosixFilePermissions(p));
            if (writable) perms.add(PosixFilePermission.OWNER_WRITE);
            else perms.removeAll(EnumSet.of(PosixFilePermission.OWNER_WRITE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE));
            try {
                Files.setPosixFilePermissions(p, perms);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    record Run(int code, String out, String err) {}

    /** Runs a command with exactly this environment (none inherited when it is given), output kept in files. */
    private static Run exec(List<String> cmd, Map<String, String> env, Path tmp) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        if (!env.isEmpty()) {
            pb.environment().clear();
            pb.environment().putAll(env);
        }
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(cmd + " did not end in 10 minutes");
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
