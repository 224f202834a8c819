package io.ibaccept.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HostlistTest {
    @Test
    void slurmStyleExpressions() {
        assertThat(Hostlist.expand("node[01-03]")).containsExactly("node01", "node02", "node03");
        assertThat(Hostlist.expand("node[1-2,5],gpu01")).containsExactly("node1", "node2", "node5", "gpu01");
        assertThat(Hostlist.expand("r[1-2]n[01-02]")).containsExactly("r1n01", "r1n02", "r2n01", "r2n02");
        assertThat(Hostlist.expand("cn[098-101]-ib")).containsExactly("cn098-ib", "cn099-ib", "cn100-ib", "cn101-ib");
        assertThat(Hostlist.expand("a b,a")).containsExactly("a", "b");
        assertThat(Hostlist.expand("node[001-128]")).hasSize(128).endsWith("node128");
    }

    @Test
    void errorsSayWhatIsWrong() {
        assertThatThrownBy(() -> Hostlist.expand("node[01-03")).hasMessage("hostlist 'node[01-03': missing ']'");
        assertThatThrownBy(() -> Hostlist.expand("node[05-01]")).hasMessage("hostlist 'node[05-01]': range '05-01' goes backwards");
        assertThatThrownBy(() -> Hostlist.expand("node[a-b]")).hasMessage("hostlist 'node[a-b]': bad range 'a-b'");
    }

    @Test
    void anExpressionOfMoreNamesThanAnyClusterIsRefusedBeforeItIsBuilt() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Hostlist.expand("n[1-100000]m[1-100000]"))
                .hasMessage("hostlist 'n[1-100000]m[1-100000]': more than 1000000 names");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Hostlist.expand("a[1-90000],b[1-90000],c[1-90000],d[1-90000],e[1-90000],f[1-90000],"
                + "g[1-90000],h[1-90000],i[1-90000],j[1-90000],k[1-90000],l[1-90000]")).hasMessageContaining("more than 1000000 names");
    }
}
