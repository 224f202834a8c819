package io.ibaccept.rules.checks;

import io.ibaccept.model.HostData;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.rules.Setting;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Active links trained at a narrower width than their class expects (4X -> 1X: lanes lost). */
final class Width extends DegradedLink<LinkWidth> {
    private static final Pattern COULD = Pattern.compile("Could be (\\d+)X");

    public String id() {
        return "link.width";
    }

    /** After error counters, lanes lost is the more specific sign than a lower speed. */
    public int rootStrength() {
        return 2;
    }

    Setting.Type type() {
        return Setting.Type.WIDTH;
    }

    String what() {
        return "width";
    }

    LinkWidth value(LinkInfo l) {
        return l.width();
    }

    Optional<LinkWidth> parse(String s) {
        return s.equalsIgnoreCase("auto") ? Optional.empty() : LinkWidth.parse(s);
    }

    double scale(LinkWidth w) {
        return w.lanes();
    }

    Optional<LinkWidth> couldBe(LinkInfo l) {
        Matcher m = COULD.matcher(l.couldBe());
        return m.find() ? LinkWidth.parse(m.group(1)) : Optional.empty();
    }

    /** The widest width both supported and enabled on the HCA port ("1X or 2X" -> 2X). */
    Optional<LinkWidth> hostMax(HostData h) {
        return h.portInfo() == null ? Optional.empty() : Optional.ofNullable(h.portInfo().maxUsableWidth());
    }

    Optional<LinkWidth> declared(io.ibaccept.contract.Contract.Link l) {
        return Optional.ofNullable(l.width());
    }

    /**
     * Fewer lanes than the ports could train is a design where no link of the class runs wider: split ports (HDR100,
     * NDR200) run 2X by design, and 12X-capable ports (the simulator's, old switches) say "Could be 12X" on every 4X
     * link, which no 4X cable can do. Only a link narrower than others of its class that it could match is a fault.
     */
    @Override
    Optional<LinkWidth> ceiling(LinkWidth best) {
        return Optional.of(best);
    }
}
