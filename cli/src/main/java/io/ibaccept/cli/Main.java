package io.ibaccept.cli;

import io.ibaccept.collect.Collector;
import io.ibaccept.collect.Hostlist;
import io.ibaccept.collect.NativeProbe;
import io.ibaccept.collect.Transport;
import io.ibaccept.collect.Transports;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.dump.KeyValues;
import io.ibaccept.model.ClusterData;
import io.ibaccept.rdma.PairScheduler;
import io.ibaccept.rdma.PerftestRunner;
import io.ibaccept.report.ReportWriter;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Status;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** ibaccept command line. Exit codes: 0 accepted, 1 not accepted/incomplete, 2 usage or unusable input, 3 internal error. */
public final class Main {
    private Main() {}

    static final String USAGE = """
            usage:
              ibaccept analyze DUMP_DIR -o OUT_DIR [--rules FILE]
              ibaccept collect (--nodes HOSTLIST | --hostfile FILE | --slurm) -o DUMP_DIR
                       [--transport local|ssh|srun|sim] [--sim-host-pattern H-{host}] [--fabric-node NODE]
                       [--parallel N] [--cluster NAME] [--mlxlink] [--ibdiagnet] [--ethtool IFACE] [--ssh-opt OPT]
                       [--probe-cmd "ibaccept probe"] [--node-timeout-s 300]
              ibaccept rdma (--nodes HOSTLIST | --hostfile FILE | --slurm) -o DUMP_DIR [--tests ib_write_bw,ib_read_lat]
                       [--pattern all-pairs|ring|bisection] [--device mlx5_0] [--port 18515] [--timeout-s 120] [--transport ...]
              ibaccept probe
              ibaccept sim-capture -o DUMP_DIR [--netfile sample-dumps/sim/fattree-16.net] [--overlay DIR]
              ibaccept bench [--nodes 2000] [--runs 5]
            """;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.print(USAGE);
            return 2;
        }
        try {
            Args a = new Args(Arrays.copyOfRange(args, 1, args.length));
            return switch (args[0]) {
                case "analyze" -> analyze(a, out, err);
                case "collect" -> collect(a, out, err);
                case "rdma" -> rdma(a, out, err);
                case "probe" -> {
                    out.print(KeyValues.format(NativeProbe.probe()));
                    yield 0;
                }
                case "sim-capture" -> SimCapture.run(a, out, err);
                case "bench" -> Bench.run(a.intOpt("--nodes", 2000), a.intOpt("--runs", 5), out);
                case "-h", "--help", "help" -> {
                    out.print(USAGE);
                    yield 0;
                }
                default -> {
                    err.println("unknown command '" + args[0] + "'");
                    err.print(USAGE);
                    yield 2;
                }
            };
        } catch (UsageError | IllegalArgumentException | DumpLoader.DumpNotFound | RuleConfig.BadRulesFile | java.io.UncheckedIOException e) {
            err.println("ibaccept: " + e.getMessage());
            return 2;
        } catch (RuntimeException e) {
            // a bug, not bad input: still no stack trace unless asked for
            err.println("ibaccept: internal error: " + e + " (set IBACCEPT_DEBUG=1 for details, and report it with the dump)");
            if (System.getenv("IBACCEPT_DEBUG") != null) e.printStackTrace(err);
            return 3;
        }
    }

    static int analyze(Args a, PrintStream out, PrintStream err) {
        if (a.positional.size() != 1) throw new UsageError("analyze needs exactly one DUMP_DIR");
        Path dump = Path.of(a.positional.get(0));
        Path outDir = Path.of(a.required("-o"));
        RuleConfig cfg = a.opt("--rules") == null ? RuleConfig.defaults() : RuleConfig.withOverrides(Path.of(a.opt("--rules")));
        ClusterData data = DumpLoader.load(dump);
        Report r = new RulesEngine(cfg).run(data);
        ReportWriter.Written w = ReportWriter.write(r, outDir);
        Map<Status, Long> c = r.counts();
        out.printf("%s  (%d fail, %d error, %d warn, %d pass, %d skip) - %d nodes from %s%n", r.verdict().label(),
                c.get(Status.FAIL), c.get(Status.ERROR), c.get(Status.WARN), c.get(Status.PASS), c.get(Status.SKIP), data.hosts().size(), dump);
        r.worstFirst().stream().filter(f -> f.status() == Status.FAIL || f.status() == Status.ERROR).limit(15)
                .forEach(f -> out.println("  " + f.status() + " " + f.check() + ": " + f.summary()));
        w.files().forEach(p -> out.println("wrote " + p));
        w.errors().forEach(e -> err.println("ibaccept: could not write " + e));
        if (!w.errors().isEmpty()) return 2;
        return switch (r.verdict()) {
            case ACCEPTED, ACCEPTED_WITH_WARNINGS -> 0;
            default -> 1;
        };
    }

    static List<String> nodes(Args a) {
        if (a.opt("--nodes") != null) return Hostlist.expand(a.opt("--nodes"));
        if (a.opt("--hostfile") != null) {
            try {
                List<String> ns = new ArrayList<>();
                for (String l : Files.readAllLines(Path.of(a.opt("--hostfile")))) {
                    String s = l.replaceAll("#.*", "").trim();
                    if (!s.isEmpty()) ns.addAll(Hostlist.expand(s.split("\\s+")[0]));
                }
                return ns;
            } catch (IOException e) {
                throw new UsageError(a.opt("--hostfile") + ": cannot read hostfile: " + e.getMessage());
            }
        }
        if (a.flag("--slurm")) {
            String nl = System.getenv("SLURM_JOB_NODELIST");
            if (nl == null) throw new UsageError("--slurm: SLURM_JOB_NODELIST is not set (run inside salloc/sbatch)");
            return Hostlist.expand(nl);
        }
        throw new UsageError("give the nodes: --nodes HOSTLIST, --hostfile FILE or --slurm");
    }

    static Transport transport(Args a) {
        String t = a.opt("--transport") == null ? (a.flag("--slurm") ? "srun" : "ssh") : a.opt("--transport");
        List<String> sshOpts = a.all("--ssh-opt");
        return switch (t) {
            case "local" -> new Transports.Local();
            case "ssh" -> new Transports.Ssh(sshOpts);
            case "srun" -> new Transports.Srun(List.of());
            case "sim" -> new Transports.Sim(a.optOr("--sim-host-pattern", "H-{host}"), a.opt("--umad2sim"));
            default -> throw new UsageError("unknown transport '" + t + "' (local, ssh, srun, sim)");
        };
    }

    static int collect(Args a, PrintStream out, PrintStream err) {
        List<String> nodes = nodes(a);
        if (nodes.isEmpty()) throw new UsageError("no nodes");
        Path dir = Path.of(a.required("-o"));
        Transport t = transport(a);
        new Collector(t, new Collector.Options(a.optOr("--cluster", "cluster"), a.opt("--fabric-node"), a.intOpt("--parallel", 32),
                a.flag("--mlxlink"), a.flag("--ibdiagnet"), a.opt("--ethtool"), a.opt("--probe-cmd"),
                Duration.ofSeconds(a.intOpt("--node-timeout-s", 300))), err).collect(nodes, dir);
        out.println("dump written to " + dir + "; analyse with: ibaccept analyze " + dir + " -o <report-dir>");
        return 0;
    }

    static int rdma(Args a, PrintStream out, PrintStream err) {
        List<String> nodes = nodes(a);
        PairScheduler.Pattern pattern = switch (a.optOr("--pattern", "all-pairs")) {
            case "all-pairs" -> PairScheduler.Pattern.ALL_PAIRS;
            case "ring" -> PairScheduler.Pattern.RING;
            case "bisection" -> PairScheduler.Pattern.BISECTION;
            default -> throw new UsageError("unknown --pattern (all-pairs, ring, bisection)");
        };
        var rounds = PairScheduler.rounds(nodes, pattern);
        PerftestRunner runner = new PerftestRunner(transport(a), new PerftestRunner.Options(
                List.of(a.optOr("--tests", "ib_write_bw,ib_read_lat").split(",")), a.opt("--device"), a.intOpt("--port", 18515),
                Duration.ofSeconds(a.intOpt("--timeout-s", 120)), Duration.ofMillis(a.intOpt("--server-delay-ms", 1500)), a.opt("--extra")), err);
        int n = runner.run(rounds, new DumpWriter(Path.of(a.required("-o"))));
        out.println(n + " perftest pair run(s) in " + rounds.size() + " round(s) written to " + a.required("-o"));
        return 0;
    }

    static final class UsageError extends RuntimeException {
        UsageError(String m) {
            super(m, null, false, false);
        }
    }

    /** Minimal option parser: "--key value", repeated keys, boolean flags, positionals. */
    static final class Args {
        static final List<String> FLAGS = List.of("--slurm", "--mlxlink", "--ibdiagnet");
        final Map<String, List<String>> opts = new LinkedHashMap<>();
        final List<String> positional = new ArrayList<>();

        Args(String[] args) {
            for (int i = 0; i < args.length; i++) {
                String s = args[i];
                if (s.startsWith("-") && s.length() > 1) {
                    if (FLAGS.contains(s)) {
                        opts.computeIfAbsent(s, k -> new ArrayList<>()).add("true");
                        continue;
                    }
                    if (i + 1 >= args.length) throw new UsageError("option " + s + " needs a value");
                    opts.computeIfAbsent(s, k -> new ArrayList<>()).add(args[++i]);
                } else positional.add(s);
            }
        }

        String opt(String k) {
            List<String> v = opts.get(k);
            return v == null ? null : v.get(v.size() - 1);
        }

        String optOr(String k, String d) {
            String v = opt(k);
            return v == null ? d : v;
        }

        List<String> all(String k) {
            return opts.getOrDefault(k, List.of());
        }

        boolean flag(String k) {
            return opts.containsKey(k);
        }

        String required(String k) {
            String v = opt(k);
            if (v == null) throw new UsageError("missing required option " + k);
            return v;
        }

        int intOpt(String k, int d) {
            String v = opt(k);
            if (v == null) return d;
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new UsageError(k + " must be a number, found '" + v + "'");
            }
        }
    }
}
