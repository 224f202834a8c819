package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ClusterShell node groups, hermetic: a configuration directory of the test (groups.conf with an upcall source as
 * ClusterShell ships it, a groups.conf.d part, a YAML file like its cluster.yaml.example), a PATH without nodeset for
 * the configuration path, and a fake nodeset first on PATH for the installed one.
 */
class NodeGroupsTest {
    @TempDir
    Path tmp;
    Path cfg, util, marker;

    @BeforeEach
    void config() throws IOException {
        util = Files.createDirectories(tmp.resolve("util"));
        for (String t : List.of("sed", "cat", "grep", "touch"))
            for (String d : List.of("/usr/bin/", "/bin/"))
                if (Files.isExecutable(Path.of(d + t))) {
                    SlurmStepTest.tool(util, t, "exec " + d + t + " \"$@\"\n");
                    break;
                }
        marker = tmp.resolve("pwned");
        cfg = Files.createDirectories(tmp.resolve("clustershell"));
        // as ClusterShell's conf/groups.conf: the local source reads groups.d/local.cfg through sed
        Files.writeString(cfg.resolve("groups.conf"), """
                [Main]
                default: local
                confdir: /nonexistent/groups.conf.d $CFGDIR/groups.conf.d
                autodir: $CFGDIR/groups.d

                [local]
                map: [ -f $CFGDIR/groups ] && f=$CFGDIR/groups || f=$CFGDIR/groups.d/local.cfg; sed -n 's/^$GROUP:\\(.*\\)/\\1/p' $f
                all: sed -n 's/^all:\\(.*\\)/\\1/p' $CFGDIR/groups.d/local.cfg
                list: sed -n 's/^\\([0-9A-Za-z_-]*\\):.*/\\1/p' $CFGDIR/groups.d/local.cfg
                """);
        Files.createDirectories(cfg.resolve("groups.d"));
        Files.writeString(cfg.resolve("groups.d/local.cfg"), """
                # ClusterShell groups config local.cfg
                adm: node0
                compute: node[01-08]
                gpu: node[07-08]
                empty:
                all: node0,node[01-08]
                """);
        Files.writeString(cfg.resolve("groups.d/cluster.yaml"), """
                roles:
                    adm: 'node0'
                    compute: '@racks:rack[1-2]'
                    all: '@compute,@adm'
                racks:
                    rack1: 'node[01-04]'
                    rack2: 'node[05-08]'
                    # groups from same source may be referenced without the "source:" prefix
                    old: '@rack1'
                    rack5:
                        - 'node[20-21]'
                        - 'node30'
                cpu:
                    ivy: 'node[01-02]'
                    hsw: '@roles:compute!@ivy'
                    nothing:
                """);
        Files.createDirectories(cfg.resolve("groups.conf.d"));
        // a site source whose map upcall would run anything a group name smuggled into it
        Files.writeString(cfg.resolve("groups.conf.d/site.conf"), """
                [site]
                map: echo "site-$GROUP"
                """);
    }

    NodeGroups groups(Path path) {
        return new NodeGroups(Map.of("PATH", path.toString(), "CLUSTERSHELL_CFGDIR", cfg.toString(), "HOME", tmp.resolve("home").toString()),
                tmp.resolve("etc-clustershell"));
    }

    @Test
    void groupsResolveFromClusterShellsConfigurationWithoutNodeset() {
        NodeGroups g = groups(util);
        assertThat(g.expand("@compute")).hasSize(8).startsWith("node01").endsWith("node08");
        assertThat(g.expand("@local:gpu,node[10-11]")).containsExactly("node07", "node08", "node10", "node11");
        assertThat(g.expand("@racks:rack[1-2]!@gpu")).hasSize(6).doesNotContain("node07", "node08");
        assertThat(g.expand("@racks:old")).containsExactly("node01", "node02", "node03", "node04");
        assertThat(g.expand("@racks:rack5")).containsExactly("node20", "node21", "node30");
        // a group of another source inside a group, and one of its own source without prefix
        assertThat(g.expand("@cpu:hsw")).containsExactly("node03", "node04", "node05", "node06", "node07", "node08");
        assertThat(g.expand("@compute&@racks:rack2")).containsExactly("node05", "node06", "node07", "node08");
        assertThat(g.expand("@racks:rack1^node[04-05]")).containsExactly("node01", "node02", "node03", "node05");
        assertThat(g.expand("@roles:*")).hasSize(9).contains("node0");
        assertThat(g.expand("@*")).hasSize(9);
        assertThat(g.expand("@site:x1")).containsExactly("site-x1");
        // a plain hostlist never looks for groups
        assertThat(g.expand("node[1-2]")).containsExactly("node1", "node2");
    }

    @Test
    void aGroupThatResolvesToNothingIsAnErrorNamingItAndWhereItWasLooked() {
        NodeGroups g = groups(util);
        assertThatThrownBy(() -> g.expand("@empty,node01")).isInstanceOf(NodeGroups.GroupError.class)
                .hasMessageContaining("node group '@local:empty' resolves to no node").hasMessageContaining("source 'local' of " + cfg.resolve("groups.conf"));
        assertThatThrownBy(() -> g.expand("@cpu:nothing")).hasMessageContaining("'@cpu:nothing' resolves to no node")
                .hasMessageContaining(cfg.resolve("groups.d/cluster.yaml").toString());
        assertThatThrownBy(() -> g.expand("@racks:rack9")).hasMessageContaining("'@racks:rack9' resolves to no node");
        assertThatThrownBy(() -> g.expand("@nosuch:x")).hasMessageContaining("no ClusterShell group source 'nosuch'")
                .hasMessageContaining("site, roles, racks, cpu, local");
        assertThatThrownBy(() -> g.expand("@compute!@compute")).hasMessageContaining("resolves to no node");
        // no configuration at all
        NodeGroups none = new NodeGroups(Map.of("PATH", util.toString(), "HOME", tmp.resolve("home").toString()), tmp.resolve("etc-clustershell"));
        assertThatThrownBy(() -> none.expand("@compute")).hasMessageContaining("no ClusterShell group source is configured")
                .hasMessageContaining(tmp.resolve("etc-clustershell").toString());
        // set operators on plain hostlists need no group source
        assertThat(none.expand("node[1-4]!node2")).containsExactly("node1", "node3", "node4");
    }

    @Test
    void aGroupNameFromTheCommandLineNeverReachesTheUpcallsShell() {
        NodeGroups g = groups(util);
        String m = marker.toString();
        for (String hostile : List.of("@site:x$(touch " + m + ")", "@site:x`touch " + m + "`", "@site:x;touch${IFS}" + m,
                "@site:x'\"$(touch " + m + ")", "@site:-x", "@site:x|touch " + m, "@site:x\ntouch " + m))
            assertThatThrownBy(() -> g.expand(hostile)).as(hostile).isInstanceOf(IllegalArgumentException.class);
        assertThat(marker).doesNotExist();
    }

    @Test
    void installedNodesetExpandsTheExpressionAsOneArgumentWithoutAShell() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("clustershell-bin"));
        Path log = tmp.resolve("nodeset.log");
        // answers like nodeset -e: space-separated nodes; @empty is empty, anything else it does not know fails
        SlurmStepTest.tool(bin, "nodeset", "printf '%s\\0' \"$@\" >> '" + log + "'; printf '\\n' >> '" + log + "'\n"
                + "[ \"$1\" = -e ] || exit 2\n"
                + "case \"$2\" in\n"
                + "  @compute) echo 'node01 node02 node03' ;;\n"
                + "  @gpu) echo 'node03' ;;\n"
                + "  @empty) echo ;;\n"
                + "  '@compute!@gpu') echo 'node01 node02' ;;\n"
                + "  '@compute,@empty') echo 'node01 node02 node03' ;;\n"
                + "  *) echo \"nodeset: Parse error: $2\" >&2; exit 1 ;;\n"
                + "esac\n");
        NodeGroups g = groups(Path.of(bin + ":" + util));
        assertThat(g.expand("@compute!@gpu")).containsExactly("node01", "node02");
        List<String> calls = List.of(Files.readString(log, StandardCharsets.UTF_8).split("\n"));
        assertThat(calls).contains("-e\0@compute!@gpu\0", "-e\0@compute\0", "-e\0@gpu\0");
        assertThatThrownBy(() -> g.expand("@compute,@empty")).isInstanceOf(NodeGroups.GroupError.class)
                .hasMessageContaining("node group '@empty' resolves to no node").hasMessageContaining("nodeset -e");
        String hostile = "@compute;touch " + marker + " $(touch " + marker + ")";
        assertThatThrownBy(() -> g.expand(hostile)).hasMessageContaining("Parse error");
        assertThat(Files.readString(log, StandardCharsets.UTF_8)).contains("-e\0" + hostile + "\0");
        assertThat(marker).doesNotExist();
    }
}
