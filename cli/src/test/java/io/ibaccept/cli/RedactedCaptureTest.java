package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real captures as people publish them on forums and in tickets: the GUIDs partly replaced by x's. The captures are
 * real (parsers/src/test/resources/real, sources in its SOURCES.md); the masking is the publisher's redaction, applied
 * here to them in the two ways it is seen: middle digits masked ("0x7cfe90xxxxxx1234", each GUID still unlike the
 * others) and trailing digits masked ("S-e41d2d030xxxxxx", many records then sharing one id). A redacted value is not
 * data: the report is written, the redaction is one input finding at its file and line, and the fabric is judged as
 * the unredacted capture is.
 */
class RedactedCaptureTest {
    private static final Path REAL = Path.of("..", "parsers", "src", "test", "resources", "real");
    private static final Pattern GUID = Pattern.compile("(?<![0-9a-fA-F])([0-9a-f]{6})([0-9a-f]{6})([0-9a-f]{3,4})(?![0-9a-fA-F])");
    private static final UnaryOperator<String> MIDDLE = s -> GUID.matcher(s).replaceAll(m -> m.group(1) + "xxxxxx" + m.group(3));
    private static final UnaryOperator<String> TRAILING = s -> GUID.matcher(s).replaceAll(m -> m.group(1) + m.group(2).substring(0, 4)
            + "x".repeat(2 + m.group(3).length()));
    private static final List<String> WRITTEN = List.of("report.html", "report.pdf", "findings.csv", "findings.json", "junit.xml",
            "ibaccept.prom", "inventory.csv", "topology.conf", "topology.yaml", "node-name-map", "nhc.conf", "drain.sh");

    /** A dump of one real capture, redacted or not, as fabric/FILE.out collected from node. */
    static Path dump(Path dir, String capture, String file, String node, UnaryOperator<String> redact) throws IOException {
        Files.createDirectories(dir.resolve("fabric"));
        Files.writeString(dir.resolve("fabric").resolve(file + ".out"), redact.apply(Files.readString(REAL.resolve(capture))));
        Files.writeString(dir.resolve("manifest.txt"), "format: 1\ncluster: redacted\nfabric_node: " + node + "\nnodes: " + node + "\n");
        return dir;
    }

    static JsonNode analyze(Path dump, Path out) throws IOException {
        MainTest.Run r = MainTest.run("analyze", dump.toString(), "-o", out.toString());
        assertThat(r.err()).as("stderr").isEmpty();
        assertThat(r.code()).as(r.out()).isIn(Main.ACCEPTED, Main.NOT_ACCEPTED, Main.INCOMPLETE);
        for (String f : WRITTEN) assertThat(out.resolve(f)).as(f).isNotEmptyFile();
        return new ObjectMapper().readTree(out.resolve("findings.json").toFile());
    }

    /** check, status and variant of every fabric and link finding: what the fabric was judged to be. */
    static List<String> fabricVerdicts(JsonNode findings) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : findings.get("findings"))
            if (f.get("check").asText().matches("fabric\\.(tree|blocking)|link\\..*"))
                out.add(f.get("check").asText() + " " + f.get("status").asText() + " " + f.get("variant").asText());
        out.sort(null);
        return out;
    }

    static List<JsonNode> inputFindings(JsonNode findings, String file) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode f : findings.get("findings"))
            if (f.get("check").asText().equals("input") && f.get("summary").asText().contains(file)) out.add(f);
        return out;
    }

    @Test
    void aRedactedIbnetdiscoverIsJudgedAsTheCaptureItWas(@TempDir Path tmp) throws IOException {
        String capture = "ibnetdiscover/clustervision-trinityx-edr-6sw-96ca.txt";
        JsonNode plain = analyze(dump(tmp.resolve("plain"), capture, "ibnetdiscover", "node018", s -> s), tmp.resolve("r0"));
        assertThat(inputFindings(plain, "ibnetdiscover.out")).isEmpty();
        for (UnaryOperator<String> redact : List.of(MIDDLE, TRAILING)) {
            Path d = dump(tmp.resolve("d" + (redact == MIDDLE ? "m" : "t")), capture, "ibnetdiscover", "node018", redact);
            assertThat(Files.readString(d.resolve("fabric/ibnetdiscover.out"))).contains(redact == MIDDLE
                    ? "switchguid=0xec0d9axxxxxx8240(ec0d9axxxxxx8240)" : "Switch\t36 \"S-ec0d9a0300xxxxxx\"");
            JsonNode r = analyze(d, tmp.resolve("r" + (redact == MIDDLE ? "m" : "t")));
            assertThat(inputFindings(r, "ibnetdiscover.out")).singleElement().satisfies(f -> {
                // the first redacted value: sysimgguid of the first switch record
                assertThat(f.get("summary").asText()).startsWith("ibnetdiscover: fabric/ibnetdiscover.out:7: ").contains("redacted")
                        .contains("not read as GUIDs");
                if (redact == TRAILING) assertThat(f.get("summary").asText()).contains("102 records share a redacted id, each told apart by its peers");
            });
            // the same fabric as unredacted: the DDR inter-switch link and the 2:1 leaves; no switch cut off from its leaves
            assertThat(fabricVerdicts(r)).isEqualTo(fabricVerdicts(plain));
            for (JsonNode f : r.get("findings")) assertThat(f.get("summary").asText()).doesNotContain("not connected to any leaf");
            Path out = tmp.resolve("r" + (redact == MIDDLE ? "m" : "t"));
            assertThat(Files.readString(out.resolve("topology.conf"))).contains("Nodes=gpu[021-044]");
            assertThat(Files.readString(out.resolve("node-name-map"))).contains("102 node(s) left out: the dump does not give their GUID");
        }
    }

    /** A redacted iblinkinfo of one Quantum switch: 21 hosts and its SHARP aggregation node, never 22 hosts nor one merged host. */
    @Test
    void aRedactedIblinkinfoKeepsEachHostAndTheAggregationNodeApart(@TempDir Path tmp) throws IOException {
        String capture = "iblinkinfo/cn-sharp-notes-hdr-quantum-21hosts.txt";
        Path d = dump(tmp.resolve("d"), capture, "iblinkinfo", "cu01", MIDDLE);
        assertThat(Files.readString(d.resolve("fabric/iblinkinfo.out"))).contains("Switch: 0x0c42a1xxxxxx82a4 Quantum Mellanox Technologies:");
        JsonNode r = analyze(d, tmp.resolve("r"));
        assertThat(inputFindings(r, "iblinkinfo.out")).singleElement()
                .satisfies(f -> assertThat(f.get("summary").asText()).startsWith("iblinkinfo: fabric/iblinkinfo.out:2: 23 GUID value(s) are redacted"));
        List<String> tree = new ArrayList<>();
        for (JsonNode f : r.get("findings")) if (f.get("check").asText().equals("fabric.tree")) tree.add(f.get("summary").asText());
        assertThat(tree).singleElement().asString().startsWith("1 switch(es), 21 hosts:");
    }
}
