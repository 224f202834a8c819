package io.ibaccept.cli;

import io.ibaccept.collect.Collector;
import io.ibaccept.collect.ExecResult;
import io.ibaccept.model.Hostlist;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.model.Ibstat;
import io.ibaccept.parse.IbstatParser;
import io.ibaccept.parse.Text;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * 'ibaccept sim-capture': runs the demo scenario on ibsim and collects it, i.e. how sample-dumps/dumps/demo-hdr16 was
 * made. Faults: node06 link at 1X, node11 link at EDR, node16 unplugged, symbol errors and link-downs on leaf03 port 3,
 * P_Key 0x8001 on node03 but not on its switch port, two SMs with the same priority.
 */
final class SimCapture {
    private SimCapture() {}

    static int run(Path netfile, Path dump, Path overlayDir, String hostlist, String cluster, PrintStream out, PrintStream err) {
        if (!SimFabric.available()) {
            err.println("ibaccept: sim-capture needs ibsim-utils libumad2sim0 opensm infiniband-diags (apt-get install them)");
            return 2;
        }
        Path work;
        String net;
        try {
            net = Files.readString(netfile);
            work = Files.createTempDirectory("ibaccept-sim-");
        } catch (IOException e) {
            throw new Main.UsageError(netfile + ": " + e.getMessage());
        }
        List<String> nodes = Hostlist.expand(hostlist);
        try (SimFabric f = SimFabric.start(SimFabric.degrade(net, List.of("node06"), List.of("node11")), work)) {
            Path parts = work.resolve("partitions.conf");
            Files.writeString(parts, "Default=0x7fff, ipoib : ALL=full;\ncompute=0x0001 : " + portGuid(f, "node03") + "=full;\n");
            f.startSm("node01", 14, parts, "off");
            f.startSm("node02", 14, parts, "off");
            f.awaitActive(nodes, Duration.ofSeconds(60));
            f.unlink("node16");
            f.setCounter("leaf03", 3, "SymbolErrorCounter", 1234);
            f.setCounter("leaf03", 3, "LinkDownedCounter", 7);
            f.settle(Duration.ofSeconds(12));
            new Collector(f.transport(), new Collector.Options(cluster, "node01", 8, false, false, null, null), err)
                    .collect(nodes, dump);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (overlayDir != null) overlay(overlayDir, dump);
        out.println("captured " + nodes.size() + " nodes into " + dump + " (simulator work dir " + work + ")");
        return 0;
    }

    static String portGuid(SimFabric f, String host) {
        ExecResult r = f.transport().run(host, "ibstat", Duration.ofSeconds(10));
        List<Ibstat.Ca> cas = IbstatParser.parse(new Text("ibstat", r.stdout()));
        return String.format("0x%016x", cas.get(0).ports().get(0).portGuid());
    }

    /**
     * Copies sample outputs of tools that cannot run on ibsim (mlxlink, ofed_info, perftest, ibdiagnet) over the dump.
     * Each copied .out gets a .meta saying it is a sample, not a capture, unless the overlay brings its own .meta.
     */
    static void overlay(Path from, Path dump) {
        DumpWriter w = new DumpWriter(dump);
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
                Path rel = from.relativize(p);
                Path to = dump.resolve(rel.toString());
                Files.createDirectories(to.getParent());
                Files.copy(p, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                String name = rel.getFileName().toString();
                if (!name.endsWith(".out") || Files.exists(from.resolve(rel.toString().replaceAll("\\.out$", ".meta")))) continue;
                String cmd = name.substring(0, name.length() - 4);
                Files.deleteIfExists(to.resolveSibling(cmd + ".err"));
                String host = rel.getNameCount() > 2 ? rel.getName(1).toString() : "fabric";
                w.meta(rel.toString(), new CommandResult(cmd, host, "sample output in the tool's real format (not runnable on ibsim)",
                        CommandResult.OK, 0, 0, "", ""), Map.of());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
