package io.ibaccept.rules.checks;

import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.rules.Setting;
import java.util.List;
import java.util.Optional;

/** Active links that negotiated a lower speed than expected (HDR -> EDR). */
final class Speed extends DegradedLink<LinkSpeed> {
    public String id() {
        return "link.speed";
    }

    public List<Setting> settings() {
        return List.of(Setting.of("expected", Setting.Type.SPEED, "auto", "expected speed of every active link; auto = the most common"));
    }

    LinkSpeed value(LinkInfo l) {
        return l.speed();
    }

    Optional<LinkSpeed> parse(String s) {
        return LinkSpeed.parse(s);
    }

    double scale(LinkSpeed s) {
        return s.dataGbpsPerLane();
    }
}
