package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class HostlistsTest {
    @Test
    void compressesPaddedRanges() {
        List<String> hosts = IntStream.rangeClosed(1, 2000).mapToObj(i -> String.format("node%04d", i)).toList();
        List<String> shuffled = new ArrayList<>(hosts);
        Collections.shuffle(shuffled, new Random(1));
        assertThat(Hostlists.compress(shuffled)).isEqualTo("node[0001-2000]");
    }

    @Test
    void gapsMixedPrefixesSuffixesAndPlainNames() {
        assertThat(Hostlists.compress(List.of("cn01", "cn02", "cn03", "cn05", "gpu1", "gpu2", "login", "cn07")))
                .isEqualTo("login,cn[01-03,05,07],gpu[1-2]");
        assertThat(Hostlists.compress(List.of("r1n003-ib", "r1n001-ib", "r1n002-ib", "r2n001-ib")))
                .isEqualTo("r1n[001-003]-ib,r2n001-ib");
        assertThat(Hostlists.compress(List.of("a"))).isEqualTo("a");
        assertThat(Hostlists.compress(List.of())).isEmpty();
    }

    @Test
    void paddingIsKept() {
        assertThat(Hostlists.compress(List.of("node9", "node10", "node11"))).isEqualTo("node[9-11]");
        assertThat(Hostlists.compress(List.of("node09", "node10", "node11"))).isEqualTo("node[09-11]");
        assertThat(Hostlists.compress(List.of("node099", "node100"))).isEqualTo("node[099-100]");
        // node9 and node09 are different hosts: neither may be lost or merged into the other
        String s = Hostlists.compress(List.of("node9", "node09", "node10"));
        assertThat(expand(s)).containsExactlyInAnyOrder("node9", "node09", "node10");
        assertThat(Hostlists.compress(List.of("node9", "node010"))).isEqualTo("node[9,010]");
        assertThat(expand("node[9,010]")).containsExactly("node9", "node010");
    }

    @Test
    void hugeNumbersAreNames() {
        String guidLike = "sw0002c903000123456789abc0";
        String longDigits = "x1234567890123456789012";
        assertThat(expand(Hostlists.compress(List.of(guidLike, longDigits)))).containsExactlyInAnyOrder(guidLike, longDigits);
    }

    @Test
    void roundTripsRandomSets() {
        Random rnd = new Random(7);
        for (int round = 0; round < 200; round++) {
            List<String> in = new ArrayList<>();
            int n = 1 + rnd.nextInt(60);
            for (int i = 0; i < n; i++) {
                String prefix = List.of("node", "cn", "gpu-r", "x").get(rnd.nextInt(4));
                int v = rnd.nextInt(120);
                String num = rnd.nextBoolean() ? String.valueOf(v) : String.format("%03d", v);
                in.add(prefix + num + (rnd.nextInt(5) == 0 ? "-ib" : ""));
            }
            assertThat(expand(Hostlists.compress(in))).as("round %d: %s", round, in).containsExactlyInAnyOrderElementsOf(new java.util.LinkedHashSet<>(in));
        }
    }

    private static final Pattern BRACKET = Pattern.compile("^(.*?)\\[([^\\]]*)](.*)$");

    /** Slurm's expansion, for the round trip (a range's padding is its first bound's width). */
    static List<String> expand(String list) {
        List<String> out = new ArrayList<>();
        if (list.isEmpty()) return out;
        List<String> items = new ArrayList<>();
        int depth = 0, from = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '[') depth++;
            else if (c == ']') depth--;
            else if (c == ',' && depth == 0) { items.add(list.substring(from, i)); from = i + 1; }
        }
        items.add(list.substring(from));
        for (String item : items) {
            Matcher m = BRACKET.matcher(item);
            if (!m.matches()) { out.add(item); continue; }
            for (String r : m.group(2).split(",")) {
                String[] b = r.split("-");
                long lo = Long.parseLong(b[0]), hi = Long.parseLong(b[b.length - 1]);
                int width = b[0].length();
                for (long v = lo; v <= hi; v++) out.add(m.group(1) + String.format("%0" + width + "d", v) + m.group(3));
            }
        }
        return out;
    }
}
