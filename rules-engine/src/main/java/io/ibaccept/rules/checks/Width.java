package io.ibaccept.rules.checks;

import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.rules.Setting;
import java.util.List;
import java.util.Optional;

/** Active links trained at a narrower width than expected (4X -> 1X: lanes lost). */
final class Width extends DegradedLink<LinkWidth> {
    public String id() {
        return "link.width";
    }

    public List<Setting> settings() {
        return List.of(Setting.of("expected", Setting.Type.WIDTH, "auto", "expected width of every active link; auto = the most common"));
    }

    LinkWidth value(LinkInfo l) {
        return l.width();
    }

    Optional<LinkWidth> parse(String s) {
        return LinkWidth.parse(s);
    }

    double scale(LinkWidth w) {
        return w.lanes();
    }
}
