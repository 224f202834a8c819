package io.ibaccept.dump.sources;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dump sources' descriptors: one per key, and each parsed result where its descriptor looks for it. */
class SourcesTest {
    @TempDir
    Path tmp;

    @Test
    void everyKeyHasOneSourceUnderItsOwnFileName() {
        Set<String> names = new HashSet<>();
        for (Cmd cmd : Cmd.values()) {
            Source<?> s = cmd.source();
            assertThat(s.cmd()).isEqualTo(cmd);
            assertThat(names.add(s.fileName())).as("file name " + s.fileName() + " used once").isTrue();
            assertThat(Cmd.named(s.fileName())).contains(cmd);
            assertThat(s.hint()).as(s.fileName()).isNotBlank();
            assertThat(s.scope()).as(s.fileName()).isNotEqualTo(Source.Scope.PAIR);
        }
        assertThat(Sources.all()).hasSize(Cmd.values().length + 1).contains(Sources.PERFTEST);
        assertThat(Sources.PERFTEST.scope()).isEqualTo(Source.Scope.PAIR);
    }

    @Test
    void whatCollectRunsDependsOnTheOptions() {
        CollectOptions all = new CollectOptions(true, true, "ib0", "ibaccept probe", true, false);
        for (Source<?> s : Sources.all()) {
            boolean byCollect = s.collectedBy() == Source.CollectedBy.COLLECT;
            if (byCollect || s.collectedBy() == Source.CollectedBy.ATTACHED)
                assertThat(s.collect(all).isPresent()).as(s.fileName() + " collected with every option").isEqualTo(byCollect);
            // a source collect gathers only on request is optional: a dump collected without it does not miss it
            if (byCollect && s.collect(CollectOptions.DEFAULTS).isEmpty()) assertThat(s.optional()).as(s.fileName()).isTrue();
        }
        assertThat(Cmd.ETHTOOL.source().collect(all).orElseThrow().script()).isEqualTo("ethtool -S ib0");
        assertThat(Cmd.MLXLINK.source().collect(CollectOptions.DEFAULTS)).isEmpty();
        // on the simulator every host is this machine: its own OS facts are not collected
        CollectOptions sim = new CollectOptions(false, false, null, null, false, true);
        assertThat(Cmd.LSMOD.source().collect(sim)).isEmpty();
        assertThat(Cmd.IBSTAT.source().collect(sim)).isPresent();
    }

    /** A real or simulated output of each source (test resources; a few one-liners where no capture is kept). */
    static final Map<String, String> SAMPLES = Map.ofEntries(
            Map.entry("ibnetdiscover", "/fixtures/sim/ibnetdiscover.out"),
            Map.entry("iblinkinfo", "/fixtures/sim/iblinkinfo.out"),
            Map.entry("ibqueryerrors", "/fixtures/sim/ibqueryerrors.out"),
            Map.entry("perfquery", "/fixtures/sim/perfquery.out"),
            Map.entry("saquery-s", "/fixtures/sim/saquery-s.out"),
            Map.entry("saquery-g", "/real/saquery-g/ibsim-opensm-2s4l-two-partitions-mtu4-mtu5.txt"),
            Map.entry("sminfo", "/fixtures/sim/sminfo.out"),
            Map.entry("dump_fts", "/real/dump_fts/ibsim-2s4l-ftree.txt"),
            Map.entry("smpquery-sl2vl", "/real/smpquery-sl2vl/ibsim-ring4-dfsssp-qos-default.txt"),
            Map.entry("ibdiagnet2.log", "/fixtures/hw/ibdiagnet2.log"),
            Map.entry("ibdiagnet2.db_csv", "/fixtures/hw/ibdiagnet2.db_csv"),
            Map.entry("ibdiagnet2.pm", "/real/ibdiagnet2.pm/gary-minghuili-ndr-quantum2-full.txt"),
            Map.entry("ibdiagnet2.ibnetdiscover", "/real/ibnetdiscover/gary-minghuili-ndr-quantum2-ibdiagnet2-ibnetdiscover.txt"),
            Map.entry("ibdiagnet2.sm", "/real/ibdiagnet2.sm/gary-minghuili-ndr-quantum2-full.txt"),
            Map.entry("ibdiagnet2.pkey", "/real/ibdiagnet2.pkey/gary-minghuili-ndr-quantum2-full.txt"),
            Map.entry("ibdiagnet2.cables", "/real/ibdiagnet2.cables/gary-minghuili-ndr-quantum2-get-cable-info.txt"),
            Map.entry("ibdiagnet2.net_dump", "/real/ibdiagnet2.net_dump/gary-minghuili-ndr-quantum2-full.txt"),
            Map.entry("ibdiagnet2.net_dump_ext", "/real/ibdiagnet2.net_dump_ext/gary-minghuili-ndr-quantum2-get-phy-info.txt"),
            Map.entry("counters-start", "/fixtures/sim/counters-sample.out"),
            Map.entry("counters-end", "/fixtures/sim/counters-sample.out"),
            Map.entry("ibstat", "/fixtures/sim/ibstat.out"),
            Map.entry("smpquery-portinfo", "/fixtures/sim/smpquery-portinfo-1x.out"),
            Map.entry("smpquery-pkeys", "/fixtures/sim/smpquery-pkeys.out"),
            Map.entry("smpquery-pkeys-peer", "/fixtures/sim/smpquery-pkeys.out"),
            Map.entry("smpquery-portinfo-peer", "/real/smpquery-portinfo/ibsim-switch-port-facing-hca-part-enforce-0.txt"),
            Map.entry("smpquery-nodeinfo", "/fixtures/sim/smpquery-nodeinfo.out"),
            Map.entry("ulimit-l", "/fixtures/hw/ulimit-unlimited.out"),
            Map.entry("ofed_info", "/fixtures/hw/ofed_info.out"),
            Map.entry("ip-d-addr", "/real/ip-d-addr/mckenzie-head-ib0-addr.txt"),
            Map.entry("chronyc-tracking", "/real/chronyc-tracking/fedora-docs-stratum3.txt"),
            Map.entry("mlxconfig-q", "/real/mlxconfig/xtremeownage-cx4lx-kube01-q.txt"),
            Map.entry("mlxlink", "/fixtures/hw/mlxlink-hdr.out"),
            Map.entry("mlxlink-pcie", "/fixtures/hw/mlxlink-pcie-gen3.out"),
            Map.entry("ethtool-S", "/fixtures/hw/ethtool-S.out"),
            Map.entry("native-probe", "memlock_kib: unlimited\n"),
            Map.entry("ulimit-l-step", "/fixtures/hw/ulimit-64.out"),
            Map.entry("ucx_info-v", "/real/ucx_info-v/ucx-issue-9914-hpcx-2.17.1-ucx-1.16.0.txt"),
            Map.entry("ucx_info-d", "/real/ucx_info-d/flux-azure-hbv-cx6-vf-ucx.txt"),
            Map.entry("ompi_info", "/real/ompi_info/gcp-t4-openmpi-4.1.6-ucx.txt"),
            Map.entry("hca-numa", "/sys/class/infiniband/mlx5_0/device/numa_node:0\n"),
            Map.entry("nvidia-smi-topo", "/real/nvidia-smi-topo/sglang-check-env-h100-pcie-kvm-1gpu-1nic.txt"),
            Map.entry("lsmod", "Module                  Size  Used by\nmlx5_ib               450560  0\n"),
            Map.entry("ibstatus", "/real/ibstatus/ompi-users-cx3-fdr-port1-down.txt"),
            Map.entry("uptime", "350735.47 234388.90\n"),
            Map.entry("opensm-process", "pid: 4242\nconfig: /etc/opensm/opensm.conf\narg: /usr/sbin/opensm\n"),
            Map.entry("opensm.conf", "/real/opensm/opensm-3.3.23-default.conf"),
            Map.entry("partitions.conf", "/real/opensm/partitions-man-opensm-3.3.23-examples.conf"),
            Map.entry("opensm.log", "/real/opensm/opensm-ibsim-2s4l-standby.log"),
            Map.entry("sm-failover-drill", "/real/sm-drill/ibsim-ft9-pair-takeover-8s.txt"),
            Map.entry("isl-drill", "/real/isl-drill/ibsim-ft9-leaf01-17-ftree.txt"),
            Map.entry("resilience", "/real/resilience/ibsim-single-uplink-updn.txt"),
            Map.entry("opensm-routing-files", "/real/opensm/opensm-routing-files-ibsim-ring4-updn-root.txt"));

    static String sample(String fileName) throws IOException {
        String s = SAMPLES.get(fileName);
        if (s == null || !s.startsWith("/fixtures/") && !s.startsWith("/real/")) return s;
        try (InputStream in = SourcesTest.class.getResourceAsStream(s)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * A dump holding one output only: the loader puts its parsed result into the model field its descriptor reads, so
     * that source is usable and no other is (a result built into another source's field would make that one usable).
     */
    @Test
    void eachParsedResultIsWhereItsDescriptorLooks() throws IOException {
        for (Cmd cmd : Cmd.values()) {
            Source<?> s = cmd.source();
            Path dump = Files.createDirectories(tmp.resolve(s.fileName()));
            Files.writeString(dump.resolve("manifest.txt"), "format: 1\nstate: complete\ncluster: t\nnodes: n1\n");
            String text = sample(s.fileName());
            assertThat(text).as("a sample of " + s.fileName()).isNotNull();
            Path out = dump.resolve(s.path("n1"));
            Files.createDirectories(out.getParent());
            Files.writeString(out, text);
            ClusterData d = DumpLoader.load(dump);
            List<String> usable = Sources.all().stream().filter(x -> x.usable(d)).map(Source::fileName).toList();
            assertThat(usable).as("usable with only " + s.fileName() + " in the dump").containsExactly(s.fileName());
        }
    }

    /** The README's dump format names every file a collection can write. */
    @Test
    void theReadmeDumpFormatNamesEverySource() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String format = readme.substring(readme.indexOf("## Dump format"), readme.indexOf("## Architecture"));
        for (Source<?> s : Sources.all())
            assertThat(format).as(s.fileName()).containsPattern("(?<![\\w.-])" + java.util.regex.Pattern.quote(s.fileName()) + "(?![\\w-])");
    }
}
