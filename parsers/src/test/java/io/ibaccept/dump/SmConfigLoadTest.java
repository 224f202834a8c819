package io.ibaccept.dump;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** the SM nodes' files in a dump, including an SM node named with --sm-nodes that was not collected itself. */
class SmConfigLoadTest {
    @TempDir
    Path dump;

    void write(String rel, String text) throws Exception {
        Files.createDirectories(dump.resolve(rel).getParent());
        Files.writeString(dump.resolve(rel), text);
    }

    @Test
    void smFilesAreReadPerHostAlsoFromSmOnlyNodes() throws Exception {
        write("manifest.txt", "format: 1\ncluster: t\nstate: complete\nnodes: cn1 cn2\n");
        write("nodes/cn1/ulimit-l.out", "unlimited\n");
        write("nodes/cn2/ulimit-l.out", "unlimited\n");
        write("nodes/cn1/opensm.conf.out", "sm_priority 15\n");
        // sm9 was named with --sm-nodes only: its directory holds the SM files
        write("nodes/sm9/opensm-process.out", "pid: 77\nconfig: /etc/opensm/opensm.conf\npartitions: /etc/opensm/partitions.conf\nlog: /var/log/opensm.log\narg: opensm\n");
        write("nodes/sm9/partitions.conf.out", "Default=0x7fff, ipoib : ALL=full;\nbad line here;\n");
        write("nodes/sm9/opensm.log.meta", "name: opensm.log\nhost: sm9\ncommand: tail\nstatus: failed\nexit: 1\nduration_ms: 3\nstarted: x\n");
        write("nodes/sm9/opensm.log.err", "tail: cannot open '/var/log/opensm.log' for reading: Permission denied\n");
        ClusterData d = DumpLoader.load(dump);
        assertThat(d.fabric().smConfigs()).containsOnlyKeys("cn1", "sm9");
        assertThat(d.fabric().smConfigs().get("cn1").option("sm_priority").get().ref().toString()).isEqualTo("nodes/cn1/opensm.conf.out:1");
        var sm9 = d.fabric().smConfigs().get("sm9");
        assertThat(sm9.process().pid()).isEqualTo(77);
        // a syntax error of partitions.conf is a fact about the configuration (judged by partitions.syntax), not an unreadable input
        assertThat(sm9.partitions().errors()).singleElement().satisfies(e -> assertThat(e.ref().toString()).isEqualTo("nodes/sm9/partitions.conf.out:2"));
        assertThat(d.problems()).noneMatch(p -> p.file().startsWith("nodes/sm9/partitions.conf"));
        // an unreadable log is a failed command with its reason
        assertThat(sm9.log()).isNull();
        assertThat(d.problemsFor("sm9", "opensm.log")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.COMMAND_FAILED);
            assertThat(p.message()).contains("Permission denied");
        });
        // the other collected node has none of them, and their absence is no problem (optional commands)
        assertThat(d.problems()).noneMatch(p -> List.of("opensm-process", "opensm.conf", "partitions.conf", "opensm.log").contains(p.command())
                && !"sm9".equals(p.host()));
    }
}
