package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.McGroup;
import io.ibaccept.model.PortInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** saquery -g (multicast groups) and the PortInfo of a switch port, on captures from ibsim + opensm. */
class SaqueryGroupsParserTest {
    static final String GROUPS = "saquery-g/ibsim-opensm-2s4l-two-partitions-mtu4-mtu5.txt";

    @Test
    void broadcastGroupsPerPartitionWithSelectorBitsStripped() {
        List<McGroup> g = RealSamplesTest.clean(GROUPS, SaqueryParser::groups);
        assertThat(g).hasSize(2);
        McGroup storage = g.get(0);
        assertThat(storage.mgid()).isEqualTo("ff12:401b:8002::ffff:ffff");
        assertThat(storage.mlid()).isEqualTo(0xc001);
        assertThat(storage.mtuSelector()).isEqualTo(2); // "exactly"
        assertThat(storage.mtuCode()).isEqualTo(4);
        assertThat(storage.mtuBytes()).isEqualTo(2048);
        assertThat(storage.pkey()).isEqualTo(0x8002);
        assertThat(storage.partition()).isEqualTo(2);
        assertThat(storage.rateCode()).isEqualTo(3);
        assertThat(storage.isIpv4Broadcast()).isTrue();
        assertThat(storage.mgidPkey()).isEqualTo(0x8002);
        assertThat(storage.ref().toString()).isEqualTo(GROUPS + ":1");
        McGroup def = g.get(1);
        assertThat(def.mtuBytes()).isEqualTo(4096);
        assertThat(def.partition()).isEqualTo(0x7fff);
        assertThat(def.ref().line()).isEqualTo(8);
    }

    @Test
    void otherGroupsAreNotBroadcastGroups() {
        Text t = new Text("g", """
                MCMemberRecord group dump:
                		MGID....................ff12:601b:ffff::1:ff00:1
                		Mlid....................0xC002
                		Mtu.....................0x84
                		pkey....................0xFFFF
                		Rate....................0x83
                		SL......................0x0
                MCMemberRecord group dump:
                		MGID....................ff12:401b:ffff::1
                		Mlid....................0xC003
                		Mtu.....................0x84
                		pkey....................0xFFFF
                		Rate....................0x83
                		SL......................0x0
                """);
        assertThat(SaqueryParser.groups(t)).extracting(McGroup::isIpv4Broadcast).containsExactly(false, false);
    }

    @Test
    void aBadRecordIsOneIssueAndTheOthersAreKept() {
        Text t = new Text("fabric/saquery-g.out", """
                MCMemberRecord group dump:
                		MGID....................ff12:401b:ffff::ffff:ffff
                		Mtu.....................0xZZ
                		pkey....................0xFFFF
                MCMemberRecord group dump:
                		MGID....................ff12:401b:8001::ffff:ffff
                		pkey....................0x8001
                garbage here
                MCMemberRecord group dump:
                		MGID....................ff12:401b:8002::ffff:ffff
                		Mtu.....................0x85
                		pkey....................0x8002
                """);
        Parsed<List<McGroup>> p = Parsing.run(t, SaqueryParser::groups);
        assertThat(p.value()).extracting(McGroup::pkey).containsExactly(0x8002);
        assertThat(p.issues()).extracting(e -> e.where().line()).containsExactlyInAnyOrder(3, 5, 8);
        assertThatThrownBy(() -> SaqueryParser.groups(new Text("x", "hello\n"))).isInstanceOf(ParseException.class)
                .hasMessageContaining("MCMemberRecord");
    }

    @Test
    void switchPortPortInfoReadsBothEnforcementBits() {
        PortInfo p = RealSamplesTest.clean("smpquery-portinfo/ibsim-switch-port-facing-hca-part-enforce-0.txt", SmpqueryParser::portInfo);
        assertThat(p.localPort()).isEqualTo(2);
        assertThat(p.partitionEnforceInbound()).isFalse();
        assertThat(p.partitionEnforceOutbound()).isFalse();
        Text on = new Text("x", "LinkState:.......Active\nPartEnforceInb:..1\nPartEnforceOutb:.1\n");
        assertThat(SmpqueryParser.portInfo(on).partitionEnforceOutbound()).isTrue();
    }
}
