package io.ibaccept.cli;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.Waivers;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/** ibaccept command line. Exit codes: 0 accepted, 1 not accepted, 2 usage or unusable input, 3 internal error, 4 incomplete. */
@Command(name = "ibaccept", scope = ScopeType.INHERIT, mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "InfiniBand cluster acceptance: collect diagnostics from every node, judge them, write the acceptance report.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done (each command's help lists its own codes)", "2:bad usage or unusable input",
                "3:internal error (a bug: report it with the dump)"})
public final class Main implements Callable<Integer> {
    /** analyze: the verdict. ACCEPTED also with warnings, waivers or limited coverage; INCOMPLETE: nothing failed but not everything could be judged. */
    public static final int ACCEPTED = 0, NOT_ACCEPTED = 1, USAGE = 2, INTERNAL = 3, INCOMPLETE = 4;
    /** diff: the dumps differ (not a verdict). */
    public static final int CHANGED = 1;

    final PrintStream out;
    final PrintStream err;
    @Spec
    CommandSpec spec;

    Main(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** The subcommands, in the order the help lists them. */
    static final Map<String, Class<?>> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put("analyze", AnalyzeCommand.class);
        COMMANDS.put("collect", CollectCommand.class);
        COMMANDS.put("rdma", RdmaCommand.class);
        COMMANDS.put("burn", BurnCommand.class);
        COMMANDS.put("drill", DrillCommand.class);
        COMMANDS.put("resilience", ResilienceCommand.class);
        COMMANDS.put("diff", DiffCommand.class);
        COMMANDS.put("contract", ContractCommand.class);
        COMMANDS.put("rules", RulesCommand.class);
        COMMANDS.put("probe", ProbeCommand.class);
        COMMANDS.put("bench", BenchCommand.class);
        COMMANDS.put("sim-capture", SimCaptureCommand.class);
        COMMANDS.put("completion", CompletionCommand.class);
        COMMANDS.put("help", CommandLine.HelpCommand.class);
    }

    /** out and err reach the operator's terminal through {@link Console}: text from a dump cannot drive it. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return commandLine(Console.of(out), Console.of(err), args.length > 0 ? args[0] : null).execute(args);
    }

    static CommandLine commandLine(PrintStream out, PrintStream err) {
        return commandLine(out, err, null);
    }

    /**
     * first: the command about to run. Only that one is built (picocli reads each command's annotations by reflection,
     * which a one-shot analyze would pay for every command); the help, completion or an unknown command get all.
     */
    static CommandLine commandLine(PrintStream out, PrintStream err, String first) {
        CommandLine cl = new CommandLine(new Main(out, err));
        boolean justOne = first != null && COMMANDS.containsKey(first) && !first.equals("help") && !first.equals("completion");
        COMMANDS.forEach((name, c) -> {
            if (!justOne || name.equals(first)) cl.addSubcommand(name, c);
        });
        cl.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF)); // plain help: the console escapes ESC
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setParameterExceptionHandler(Main::badUsage);
        cl.setExecutionExceptionHandler((e, c, parsed) -> failed(e, err));
        return cl;
    }

    /** No subcommand: say what there is. */
    @Override
    public Integer call() {
        err.println("ibaccept: give a command");
        spec.commandLine().usage(err);
        return USAGE;
    }

    private static int badUsage(ParameterException e, String[] args) {
        CommandLine c = e.getCommandLine();
        PrintWriter w = c.getErr();
        // a mistyped option is taken for a value and then reported as another problem (a required option missing):
        // name it first, with the option it is closest to
        List<String> typos = unknownOptions(c.getCommandSpec(), args);
        for (String t : typos) w.println("ibaccept: unknown option '" + t + "'" + closest(c.getCommandSpec(), t).map(o -> " (did you mean '" + o + "'?)").orElse(""));
        if (typos.isEmpty() || !(e instanceof UnmatchedArgumentException)) w.println("ibaccept: " + e.getMessage());
        if (typos.isEmpty()) UnmatchedArgumentException.printSuggestions(e, w);
        w.println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for the options.");
        w.flush();
        return USAGE;
    }

    /** Arguments after the command's name that look like options it does not have. */
    static List<String> unknownOptions(CommandSpec spec, String[] args) {
        List<String> out = new java.util.ArrayList<>();
        boolean past = false, value = false;
        for (String a : args) {
            if (a.equals("--")) break;
            if (!past) {
                past = a.equals(spec.name());
                continue;
            }
            // the value of an option ("--ssh-opt -oProxyJump=bastion") is no option
            if (value || !a.startsWith("-") || a.equals("-")) {
                value = false;
                continue;
            }
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            picocli.CommandLine.Model.OptionSpec o = spec.findOption(name);
            if (o == null && name.length() > 2 && !name.startsWith("--")) o = spec.findOption(name.substring(0, 2)); // -oVALUE
            if (o == null) out.add(name);
            else value = !a.contains("=") && o.arity().max() > 0 && !o.isMultiValue() && name.length() == a.length() && !(name.length() > 2 && !name.startsWith("--"));
        }
        return out;
    }

    /** The command's option name nearest to a mistyped one (at most 2 edits away). */
    static java.util.Optional<String> closest(CommandSpec spec, String typo) {
        String best = null;
        int bestD = 3;
        for (picocli.CommandLine.Model.OptionSpec o : spec.options())
            for (String n : o.names()) {
                int d = distance(typo, n);
                if (d < bestD) {
                    bestD = d;
                    best = n;
                }
            }
        return java.util.Optional.ofNullable(best);
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++)
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** Bad input is the user's to fix (exit 2); anything else is a bug (exit 3). Never a stack trace unless asked for. */
    private static int failed(Exception e, PrintStream err) {
        if (e instanceof UsageError || e instanceof IllegalArgumentException || e instanceof DumpLoader.DumpNotFound
                || e instanceof RuleConfig.BadRulesFile || e instanceof io.ibaccept.contract.ContractFile.BadContract || e instanceof Waivers.BadWaiversFile
                || e instanceof UncheckedIOException || e instanceof java.io.IOException) {
            err.println("ibaccept: " + io.ibaccept.safety.IoMessages.why(e)); // a disk that fails is the system's to fix, not a bug
            return USAGE;
        }
        err.println("ibaccept: internal error: " + io.ibaccept.safety.IoMessages.why(e) + " (set IBACCEPT_DEBUG=1 for details, and report it with the dump)");
        if (System.getenv("IBACCEPT_DEBUG") != null) e.printStackTrace(err);
        return INTERNAL;
    }

    static final class UsageError extends RuntimeException {
        UsageError(String m) {
            super(m, null, false, false);
        }
    }

    /**
     * The version (the jar's Implementation-Version; from classes (tests, IDE) the one Maven filtered into
     * version.properties) and the git commit the build was made from (a resource the build writes).
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"ibaccept " + version() + " (commit " + commit() + ")",
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
        }

        static String version() {
            String v = Main.class.getPackage().getImplementationVersion();
            if (v != null) return v;
            try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
                Properties p = new Properties();
                if (in != null) p.load(in);
                return p.getProperty("version", "unknown");
            } catch (java.io.IOException e) {
                return "unknown";
            }
        }

        /** The abbreviated commit, "-dirty" when the tree had uncommitted changes; "unknown" when built outside git. */
        static String commit() {
            try (InputStream in = Main.class.getResourceAsStream("commit")) {
                String c = in == null ? "" : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).strip();
                return c.matches("[0-9a-f]{7,40}(-dirty)?") ? c : "unknown";
            } catch (java.io.IOException e) {
                return "unknown";
            }
        }
    }
}
