package io.ibaccept.rules.checks;

import io.ibaccept.model.HostData;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.LinkSpeed;
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

    Setting.Type type() {
        return Setting.Type.SPEED;
    }

    String what() {
        return "speed";
    }

    LinkSpeed value(LinkInfo l) {
        return l.speed();
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

    /** Not known yet: the PortInfo model has no LinkSpeedSupported/Enabled (iblinkinfo's hint is used instead). */
    Optional<LinkSpeed> hostMax(HostData h) {
        return Optional.empty();
    }
}
