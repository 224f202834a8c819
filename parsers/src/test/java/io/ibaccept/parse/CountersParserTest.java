package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.PortCounters;
import java.util.List;
import org.junit.jupiter.api.Test;

class CountersParserTest {
    @Test
    void perfquery() {
        List<PortCounters> pcs = CountersParser.perfquery(Fixtures.load("sim/perfquery.out"));
        assertThat(pcs).hasSize(1);
        assertThat(pcs.get(0).lid()).isEqualTo(17);
        assertThat(pcs.get(0).port()).isEqualTo(1);
        assertThat(pcs.get(0).get("LinkErrorRecoveryCounter")).isEqualTo(3);
        assertThat(pcs.get(0).counters()).containsKey("PortXmitWait");
    }

    @Test
    void ibqueryerrorsPerPortRecords() {
        List<PortCounters> pcs = CountersParser.ibqueryerrors(Fixtures.load("sim/ibqueryerrors.out"));
        assertThat(pcs).hasSize(2);
        PortCounters leaf = pcs.stream().filter(p -> p.nodeName().equals("leaf03")).findFirst().orElseThrow();
        assertThat(leaf.port()).isEqualTo(3);
        assertThat(leaf.nodeGuid()).isEqualTo(0x200004L);
        assertThat(leaf.get("SymbolErrorCounter")).isEqualTo(1234);
        assertThat(leaf.get("LinkDownedCounter")).isEqualTo(7);
        assertThat(leaf.ref().line()).isEqualTo(5);
    }

    @Test
    void ibqueryerrorsWithoutSummaryIsTruncated() {
        assertThatThrownBy(() -> CountersParser.ibqueryerrors(Fixtures.truncated("sim/ibqueryerrors.out", 3)))
                .hasMessage("sim/ibqueryerrors.out: no '## Summary' line: ibqueryerrors output is truncated");
    }
}
