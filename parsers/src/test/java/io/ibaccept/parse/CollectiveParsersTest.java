package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.Collective;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OSU micro-benchmarks and nccl-tests parsers on real captures (test resources real/collectives, see SOURCES.md). */
class CollectiveParsersTest {
    static Text real(String name) {
        try (InputStream in = CollectiveParsersTest.class.getResourceAsStream("/real/collectives/" + name)) {
            if (in == null) throw new IllegalArgumentException("no capture " + name);
            return new Text("collective/" + name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void osuAllreduceV75WithLauncherChatterAndDatatypeLine() {
        Collective c = OsuParser.parse(real("osu_allreduce-v7.5-oci-4n144p-roce.txt"));
        assertThat(c.tool()).isEqualTo("osu_allreduce");
        assertThat(c.title()).isEqualTo("OSU MPI Allreduce Latency Test");
        assertThat(c.version()).isEqualTo("v7.5");
        assertThat(c.rows()).hasSize(27);
        assertThat(c.rows().get(0).bytes()).isEqualTo(4);
        assertThat(c.rows().get(0).avgUs()).isEqualTo(11.69);
        assertThat(c.at(1048576).avgUs()).isEqualTo(3576.91);
        assertThat(c.at(1048576).ref().toString()).isEqualTo("collective/osu_allreduce-v7.5-oci-4n144p-roce.txt:24");
        assertThat(c.at(1048576).minUs()).isNaN();
        assertThat(c.badLines()).isEmpty();
        assertThat(c.ref().line()).isEqualTo(3);
    }

    @Test
    void osuFullFormatReadsMinMaxByHeader() {
        Collective c = OsuParser.parse(real("osu_allreduce-v6.2-full-200nodes-ring.txt"));
        assertThat(c.version()).isEqualTo("v6.2");
        assertThat(c.rows()).extracting(Collective.Row::bytes).containsExactly(100000L, 200000L, 400000L, 800000L, 1600000L, 3200000L);
        Collective.Row r = c.at(800000);
        assertThat(r.avgUs()).isEqualTo(5028.45);
        assertThat(r.minUs()).isEqualTo(4326.89);
        assertThat(r.maxUs()).isEqualTo(5594.54);
    }

    @Test
    void osuAlltoallPlainAndWithValidationColumn() {
        Collective plain = OsuParser.parse(real("osu_alltoall-v7.5-oci-1n36p.txt"));
        assertThat(plain.tool()).isEqualTo("osu_alltoall");
        assertThat(plain.rows()).hasSize(27);
        assertThat(plain.at(67108864).avgUs()).isEqualTo(747888.64);
        Collective val = OsuParser.parse(real("osu_alltoall-v7.5-cscs-validation.txt"));
        assertThat(val.rows()).hasSize(21).allMatch(Collective.Row::valid);
        assertThat(val.at(1048576).avgUs()).isEqualTo(5688.27);
    }

    @Test
    void osuValidationFailAndATruncatedRowAreKeptAsFindingsNotLostFiles() {
        String txt = real("osu_alltoall-v7.5-cscs-validation.txt").content()
                .replace("2048                  197.14              Pass", "2048                  197.14              Fail")
                .replace("4096                  255.02              Pass", "4096                  25x.02              Pass");
        Collective c = OsuParser.parse(new Text("collective/x.out", txt + "8192"));
        assertThat(c.at(2048).valid()).isFalse();
        assertThat(c.badLines()).extracting(b -> b.ref().line()).containsExactly(16, 25);
        assertThat(c.badLines().get(0).reason()).contains("25x.02");
        assertThat(c.rows()).hasSize(20);
    }

    @Test
    void osuWithoutHeaderOrRowsIsAParseErrorWithLine() {
        assertThatThrownBy(() -> OsuParser.parse(new Text("collective/a.out", "mpirun: command not found\n")))
                .isInstanceOf(ParseException.class).hasMessageContaining("collective/a.out").hasMessageContaining("did not start");
        Text t = real("osu_allreduce-v7.5-oci-4n144p-roce.txt");
        Text cut = new Text(t.name(), String.join("\n", t.lines().subList(0, 5)));
        assertThatThrownBy(() -> OsuParser.parse(cut)).isInstanceOf(ParseException.class)
                .hasMessageContaining(":3:").hasMessageContaining("no result rows");
    }

    @Test
    void ncclAllReducePerfSweepOutOfPlaceRanksAndBusBw() {
        Collective c = NcclTestsParser.parse(real("all_reduce_perf-h100-2n16g-sweep.txt"));
        assertThat(c.ranks()).isEqualTo(16);
        assertThat(c.rows()).hasSize(31);
        Collective.Row mb = c.at(1048576);
        assertThat(mb.avgUs()).isEqualTo(203.2);
        assertThat(mb.algBwGBps()).isEqualTo(5.16);
        assertThat(mb.busBwGBps()).isEqualTo(9.68);
        assertThat(mb.valid()).isTrue();
        assertThat(c.at(8589934592L).avgUs()).isEqualTo(47535);
        assertThat(c.ref().line()).isEqualTo(1);
    }

    @Test
    void ncclTagOutputPrefixOldHeaderAndWrongCounts() {
        String out = String.join("\n", List.of(
                "[1,0]<stdout>:# nThread 1 nGpus 1 minBytes 1310720000 maxBytes 1310720000 step: 1048576(bytes) warmup iters: 5 iters: 20 validation: 1",
                "[1,0]<stdout>:#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error",
                "[1,0]<stdout>:#        (B)    (elements)                       (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)",
                "[1,0]<stdout>:  1310720000     327680000     float     sum   1200.0  1092.27  1092.27  1e+00   1190.0  1101.45  1101.45  0e+00"));
        Collective c = NcclTestsParser.parse(new Text("collective/n.out", out));
        assertThat(c.rows()).singleElement().satisfies(r -> {
            assertThat(r.bytes()).isEqualTo(1310720000L);
            assertThat(r.avgUs()).isEqualTo(1200.0);
            assertThat(r.valid()).isFalse();
        });
    }

    @Test
    void ncclFailedInitIsAParseError() {
        assertThatThrownBy(() -> NcclTestsParser.parse(new Text("collective/n.out",
                "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
                        + "node1: Test NCCL failure common.cu:1005 'unhandled system error'\n")))
                .isInstanceOf(ParseException.class).hasMessageContaining("collective/n.out:1");
    }
}
