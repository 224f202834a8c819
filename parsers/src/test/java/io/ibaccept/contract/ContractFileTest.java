package io.ibaccept.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContractFileTest {
    static final String FULL = """
            # the customer's design
            cluster: acme
            hosts: gpu[001-128],stor[01-08]
            classes:
              gpu:
                hosts: gpu[001-128]
                hcas: 8
                link: NDR 4X
                firmware: 28.39.1002
              stor:
                hosts: stor[01-08]
                hcas: 2
                link: HDR 4X
            fabric:
              levels: 2
              switches: 24
              blocking_ratio: "2:1"
            links:
              switch: NDR 4X
              mtu: 4096
            sm:
              primary: sm01
              standby: sm02
            partitions:
              - name: Default
                pkey: 0x7fff
              - name: storage
                pkey: 0x8002
                members: stor[01-08]
            versions:
              firmware:
                MT4129: 28.39.1002
              ofed: 5.8-1.0.1.1
              ucx: 1.15.0
            performance:
              bandwidth_percent: 92
              latency_usec: 2.5
            counters:
              ber_max: 1e-12
              window_min: 10m
            required: [port.state, link.width]
            """;

    static Contract parse(String yaml) {
        return ContractFile.parse("c.yaml", yaml.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsEveryPartWithItsLine() {
        Contract k = parse(FULL);
        assertThat(k.cluster()).isEqualTo("acme");
        assertThat(k.hosts()).hasSize(136).startsWith("gpu001").endsWith("stor08");
        assertThat(k.classes()).extracting(Contract.NodeClass::name).containsExactly("gpu", "stor");
        assertThat(k.classOf("stor03").hcas()).isEqualTo(2);
        assertThat(k.hostLinkFor("gpu007")).isEqualTo(new Contract.Link(LinkSpeed.NDR, LinkWidth.X4));
        assertThat(k.firmwareFor("MT4129", "stor01")).isEqualTo("28.39.1002");
        assertThat(k.firmwareFor("MT4123", "stor01")).isNull();
        assertThat(k.fabric().blockingRatio()).isEqualTo(2.0);
        assertThat(k.fabric().levels()).isEqualTo(2);
        assertThat(k.sm().nodes()).containsExactly("sm01", "sm02");
        assertThat(k.partitions()).extracting(Contract.Partition::pkey).containsExactly(0x7fff, 0x0002);
        assertThat(k.counters().windowMin()).isEqualTo(Duration.ofMinutes(10));
        assertThat(k.required()).containsExactly("port.state", "link.width");
        assertThat(k.where("classes.gpu.firmware")).isEqualTo("c.yaml:9");
        assertThat(k.where("versions.ofed")).isEqualTo("c.yaml:33");
        assertThat(k.id()).startsWith("sha256:").hasSize(71);
        assertThat(k.summaryLines()).anySatisfy(l -> assertThat(l).contains("136 hosts in 2 classes").contains("gpu 128: 8 HCAs, NDR 4X, fw 28.39.1002"))
                .anySatisfy(l -> assertThat(l).contains("blocking 2:1"));
    }

    @Test
    void aBlockingRatioPerLevel() {
        Contract k = parse("fabric:\n  blocking_ratio:\n    leaves: \"2:1\"\n    spines: \"1.5:1\"\n");
        assertThat(k.fabric().ratioByLevel()).containsEntry(1, 2.0).containsEntry(2, 1.5);
        assertThat(k.fabric().blockingRatio()).isEqualTo(2.0);
        assertThat(k.summaryLines()).anySatisfy(l -> assertThat(l).contains("blocking 2:1 at the leaves").contains("blocking 1.5:1 at the spines"));
        assertThatThrownBy(() -> parse("fabric:\n  blocking_ratio:\n    tops: 2\n")).hasMessageStartingWith("c.yaml:3: unknown key 'tops' in fabric.blocking_ratio");
    }

    @Test
    void anUnknownKeyIsNamedWithItsLine() {
        assertThatThrownBy(() -> parse("hosts: n[1-2]\nfabric:\n  levels: 2\n  blocking: 2\n"))
                .isInstanceOf(ContractFile.BadContract.class).hasMessageStartingWith("c.yaml:4: unknown key 'blocking' in fabric; known: blocking_ratio, cores, leaves, levels, rails, spines, switches");
        assertThatThrownBy(() -> parse("host: n[1-2]\n")).hasMessageStartingWith("c.yaml:1: unknown key 'host';");
    }

    @Test
    void aValueOfTheWrongTypeIsNamedWithItsLine() {
        assertThatThrownBy(() -> parse("classes:\n  gpu:\n    hosts: g[1-2]\n    hcas: eight\n")).hasMessage("c.yaml:4: expected a whole number, found 'eight'");
        assertThatThrownBy(() -> parse("links:\n  host: HDR 5X\n")).hasMessageStartingWith("c.yaml:2: a link is a speed and a width");
        assertThatThrownBy(() -> parse("fabric:\n  blocking_ratio: lots\n")).hasMessageStartingWith("c.yaml:2: a blocking ratio is down:up");
        assertThatThrownBy(() -> parse("partitions:\n  - name: x\n    pkey: 0x1ffff\n")).hasMessageStartingWith("c.yaml:3: a P_Key is");
        assertThatThrownBy(() -> parse("counters:\n  ber_max: 2\n")).hasMessageStartingWith("c.yaml:2: a bit error rate is above 0 and below 1");
        assertThatThrownBy(() -> parse("counters:\n  ber_max: 0\n")).hasMessageStartingWith("c.yaml:2: a bit error rate is above 0 and below 1");
        assertThatThrownBy(() -> parse("partitions:\n  - name: x\n    pkey: 0x8000\n")).hasMessageStartingWith("c.yaml:3: a P_Key is");
        assertThatThrownBy(() -> parse("required:\n  - pkey\n  - pkey\n")).hasMessage("c.yaml:3: check pkey is required twice");
        assertThatThrownBy(() -> parse("sm:\n  primary: [a, b]\n")).hasMessage("c.yaml:2: expected a single value, found a list");
        assertThatThrownBy(() -> parse("hosts: n1\nhosts: n2\n")).hasMessageStartingWith("c.yaml:2: 'hosts' is given twice");
    }

    @Test
    void aBadHostlistIsNamedWithItsLine() {
        assertThatThrownBy(() -> parse("cluster: x\nhosts: node[05-01]\n")).hasMessage("c.yaml:2: hostlist 'node[05-01]': range '05-01' goes backwards");
        assertThatThrownBy(() -> parse("classes:\n  a:\n    hosts: n[1-3]\n  b:\n    hosts: n[3-4]\n")).hasMessage("c.yaml:5: host n3 is in class a and in class b");
        assertThatThrownBy(() -> parse("hosts: n[1-2]\nclasses:\n  a:\n    hosts: n[1-3]\n")).hasMessage("c.yaml:4: host n3 of class a is not among the contract's hosts");
    }

    @Test
    void notYamlEmptyAndAliasesAreRefused() {
        assertThatThrownBy(() -> parse("hosts: [a, b\n")).hasMessageStartingWith("c.yaml:2: not YAML");
        assertThatThrownBy(() -> parse("")).hasMessage("c.yaml:1: the contract is empty");
        assertThatThrownBy(() -> parse("- a\n- b\n")).hasMessage("c.yaml:1: the contract must be a mapping of keys to values");
        assertThatThrownBy(() -> parse("cluster: &a foo\nhosts: *a\n")).hasMessage("c.yaml:1: anchors (&a) are not allowed in a contract");
        assertThatThrownBy(() -> parse("cluster: !!binary aGVsbG8=\n")).hasMessage("c.yaml:1: tag tag:yaml.org,2002:binary is not allowed in a contract");
        assertThatThrownBy(() -> parse("cluster: !mine x\n")).hasMessage("c.yaml:1: tag !mine is not allowed in a contract");
    }

    @Test
    void aMissingOrHugeFileIsABadContract(@TempDir Path tmp) throws Exception {
        assertThatThrownBy(() -> ContractFile.load(tmp.resolve("none.yaml"))).isInstanceOf(ContractFile.BadContract.class).hasMessageContaining("cannot read the contract");
        Path big = tmp.resolve("big.yaml");
        Files.write(big, new byte[(int) ContractFile.MAX_BYTES + 1]);
        assertThatThrownBy(() -> ContractFile.load(big)).hasMessage(big + ": the contract is 1.0 MiB, more than 1 MiB: not read (not a contract, or one that should be split)");
    }

    /** Dozens of hostlists, each under the hostlist's own million: refused at the line that crosses the bound, before they are built. */
    @Test
    void aFewHundredBytesCannotNameMillionsOfHosts() {
        StringBuilder dozens = new StringBuilder("hosts: n[000000-099999]x[0-8]\npartitions:\n");
        for (int p = 1; p <= 30; p++) dozens.append("  - name: p").append(p).append("\n    pkey: ").append(p).append("\n    members: n[000000-099999]x[0-8]\n");
        assertThat(dozens.length()).isLessThan(2_000);
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
                assertThatThrownBy(() -> parse(dozens.toString())).hasMessage("c.yaml:1: a hostlist of a contract names at most 49,151 hosts"
                        + " (the endpoints a subnet can address: unicast LIDs 0x0001-0xBFFF); this one names more"));
        // each list within a subnet's endpoints, all of them together not
        StringBuilder many = new StringBuilder("partitions:\n");
        for (int p = 1; p <= 30; p++) many.append("  - name: p").append(p).append("\n    pkey: ").append(p).append("\n    members: n[00001-45000]\n");
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
                assertThatThrownBy(() -> parse(many.toString())).hasMessage("c.yaml:16: the contract's hostlists name more than 196,604 hosts in all"
                        + " (4 x the 49,151 endpoints a subnet can address): not a contract of one fabric"));
        // a full subnet's hosts, each in its class and in a partition, is a contract
        Contract full = parse("hosts: n[00001-48000]\nclasses:\n  gpu:\n    hosts: n[00001-48000]\npartitions:\n"
                + "  - name: all\n    pkey: 0x10\n    members: n[00001-48000]\n");
        assertThat(full.hosts()).hasSize(48_000);
        assertThat(full.partitions().get(0).members()).hasSize(48_000);
    }
}
