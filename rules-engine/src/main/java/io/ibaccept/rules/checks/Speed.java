package io.ibaccept.rules.checks;

import io.ibaccept.model.HostData;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.FabricIndex;
import io.ibaccept.rules.Setting;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Active links that negotiated a lower speed than their class expects (HDR -> EDR). */
final class Speed extends DegradedLink<LinkSpeed> {
    private static final Pattern COULD = Pattern.compile("Could be ([0-9.]+ Gbps)");

    public String id() {
        return "link.speed";
    }

    /** After error counters and a lost width. */
    public int rootStrength() {
        return 3;
    }

    Setting.Type type() {
        return Setting.Type.SPEED;
    }

    String what() {
        return "speed";
    }

    LinkSpeed value(LinkInfo l) {
        return l.speed();
    }

    /**
     * A host link that reads QDR may be FDR10 (standard PortInfo, and so some iblinkinfo versions, show FDR10 as
     * 10.0 Gbps): the host's active speed (ibstat "Rate: 40 (FDR10)", the MLNX extended PortInfo) decides.
     */
    @Override
    LinkSpeed value(Ctx c, FabricIndex.Link k) {
        LinkSpeed s = value(k.a());
        if (s != LinkSpeed.QDR) return s;
        HostData h = c.data.hosts().get(hostAt(c, k));
        return h != null && h.activeSpeed().orElse(null) == LinkSpeed.FDR10 ? LinkSpeed.FDR10 : s;
    }

    Optional<LinkSpeed> parse(String s) {
        return s.equalsIgnoreCase("auto") ? Optional.empty() : LinkSpeed.parse(s);
    }

    double scale(LinkSpeed s) {
        return s.dataGbpsPerLane();
    }

    Optional<LinkSpeed> couldBe(LinkInfo l) {
        Matcher m = COULD.matcher(l.couldBe());
        return m.find() ? LinkSpeed.parse(m.group(1)) : Optional.empty();
    }

    /**
     * The fastest speed the HCA port supports (PortInfo LinkSpeedSupported + LinkSpeedExtSupported + the MLNX FDR10
     * bit). Unknown when PortInfo lists less than the port runs now (an output without the extended fields).
     */
    Optional<LinkSpeed> hostMax(HostData h) {
        if (h.portInfo() == null) return Optional.empty();
        LinkSpeed max = h.portInfo().maxSupportedSpeed();
        if (max == null) return Optional.empty();
        Optional<LinkSpeed> now = h.activeSpeed();
        if (now.isPresent() && now.get().dataGbpsPerLane() > max.dataGbpsPerLane()) return Optional.empty();
        return Optional.of(max);
    }

    Optional<LinkSpeed> declared(io.ibaccept.contract.Contract.Link l) {
        return Optional.ofNullable(l.speed());
    }
}
