package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One block of ibdiagnet2.cables (ibdiagnet --get_cable_info): the module in one port, as ibdiagnet prints it from the
 * port's PDDR module page. fields: every "Key: value" line of the block, keys as printed; lines: the line of each key.
 * Readings a module does not report are printed as -999.999 mW, "inf mW", 0C or N/A: the accessors give them as null,
 * never as a value.
 */
public record CableModule(long guid, int port, int lid, String portName, Map<String, String> fields, Map<String, Integer> lines,
                          SourceRef ref) {
    public CableModule {
        fields = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields)); // in file order: flags are listed as printed
        lines = Map.copyOf(lines);
    }

    /** The value as printed, "" when the block has no such line. */
    public String field(String key) {
        return fields.getOrDefault(key, "").trim();
    }

    /** file:line of a key's line, else of the block's Port= line. */
    public SourceRef ref(String key) {
        Integer l = lines.get(key);
        return l == null ? ref : new SourceRef(ref.file(), l);
    }

    public String vendor() {
        return field("Vendor");
    }

    public String partNumber() {
        return field("PN");
    }

    public String serial() {
        return field("SN");
    }

    public String firmware() {
        return field("FW Version");
    }

    /** "Copper cable- unequalized", "850 nm VCSEL", ... */
    public String type() {
        return field("Type");
    }

    /** "2 m"; "" for NA. */
    public String length() {
        String l = field("Length");
        return l.equalsIgnoreCase("NA") || l.equalsIgnoreCase("N/A") ? "" : l;
    }

    /** A copper cable (passive or equalized): no laser, so no Tx bias or optical power to read. */
    public boolean copper() {
        return type().toLowerCase(Locale.ROOT).contains("copper");
    }

    /**
     * Whether the module reports its monitors at all: a module without digital diagnostics (a passive copper cable)
     * prints 0 for every threshold and 0C for its temperature, and its flag words mean nothing.
     */
    public boolean monitored() {
        return temperatureHighAlarm() != null || rxPowerThresholdsDbm() != null || txPowerThresholdsDbm() != null || txBiasThresholdsMa() != null;
    }

    /** Module temperature in C; null when not reported (0C, N/A). */
    public Double temperature() {
        return celsius("Temperature");
    }

    public Double temperatureHighAlarm() {
        return celsius("AlarmTemperatureHighThresh");
    }

    public Double temperatureLowAlarm() {
        Double hi = temperatureHighAlarm();
        // a low threshold of 0C is a real threshold only next to a real high one
        String v = field("AlarmTemperatureLowThresh");
        return hi == null ? null : number(v.endsWith("C") ? v.substring(0, v.length() - 1) : v);
    }

    public Double temperatureHighWarning() {
        return celsius("WarnTemperatureHighThresh");
    }

    public Double temperatureLowWarning() {
        String v = field("WarnTemperatureLowThresh");
        return temperatureHighWarning() == null ? null : number(v.endsWith("C") ? v.substring(0, v.length() - 1) : v);
    }

    /** Per lane (RX1.. as printed) received power in mW; null for a lane not reported (-999.999, inf, N/A). */
    public List<Double> rxPowerMw() {
        return lanes("RX", " Power");
    }

    public List<Double> txPowerMw() {
        return lanes("TX", " Power");
    }

    public List<Double> txBiasMa() {
        return lanes("TX", " Bias");
    }

    /** The lanes printed as "inf" (a reading the module gave but ibdiagnet could not convert): not a value either. */
    public List<Integer> unreadableLanes(String prefix, String suffix) {
        List<Integer> out = new ArrayList<>();
        for (int lane = 1; fields.containsKey(prefix + lane + suffix); lane++)
            if (field(prefix + lane + suffix).startsWith("inf") || field(prefix + lane + suffix).startsWith("-inf")) out.add(lane);
        return out;
    }

    /**
     * {low, high} of the RX power thresholds in dBm, null when the module gives none (both 0). ibdiagnet prints PDDR's
     * rx_power_low_th/high_th as the unsigned 16-bit field holds them: signed dBm (65530 = -6 dBm), as mlxlink converts them.
     */
    public double[] rxPowerThresholdsDbm() {
        return pair("RXPowerLowThresh", "RXPowerHighThresh", 1, true);
    }

    public double[] txPowerThresholdsDbm() {
        return pair("TXPowerLowThresh", "TXPowerHighThresh", 1, true);
    }

    /** {low, high} TX bias thresholds in mA: PDDR's tx_bias_*_th count 2 uA steps (mlxlink divides them by 500). */
    public double[] txBiasThresholdsMa() {
        return pair("TXBiasLowThresh", "TXBiasHighThresh", 500, false);
    }

    /** A flag word as printed ("0x3223"), null when absent or not hex. */
    public Integer flags(String key) {
        String v = field(key);
        if (!v.startsWith("0x") || v.length() < 3 || v.length() > 10) return null;
        try {
            return (int) Long.parseLong(v.substring(2), 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A set flag of a flag word, in words ("Rx loss of lock"), the lanes it is set on (empty: the module as a whole) and the word's line. */
    public record Flag(String what, boolean alarm, List<Integer> lanes, SourceRef ref) {
        /** "Rx loss of lock on lanes 1-4", "temperature high alarm". */
        public String text() {
            return lanes.isEmpty() ? what : what + " on lane" + (lanes.size() > 1 ? "s " : " ") + CableModule.lanes(lanes);
        }
    }

    /**
     * The set flags of the module's flag words, decoded as ibdiagnet packs them: in SFF-8636's layout of lower page 00h
     * (4 lanes). Byte 3 "CDR Latched TX/RX Loss Indicator": Tx LOS lanes 4..1 in bits 7..4, Rx LOS in bits 3..0; byte 4
     * "Latched Adaptive Equalization Fault": Tx adaptive-EQ fault 7..4, Tx fault 3..0; byte 5 "Latched TX / RX LOL
     * Indicator": Tx LOL 7..4, Rx LOL 3..0; bytes 6-7 temperature and voltage: high alarm, low alarm, high warning, low
     * warning in bits 7..4; bytes 9-14 the RX power, TX bias and TX power words: one nibble per lane from lane 1 in the
     * top nibble, each high alarm, low alarm, high warning, low warning from bit 3 down. Empty for a module without
     * monitors, whose words mean nothing.
     */
    public List<Flag> setFlags() {
        List<Flag> out = new ArrayList<>();
        if (!monitored()) return out;
        for (var e : fields.entrySet()) {
            String key = e.getKey().replaceAll("\\s+", " ");
            Integer w = flags(e.getKey());
            if (w == null || w == 0) continue;
            SourceRef at = ref(e.getKey());
            switch (key) {
                case "CDR Latched TX/RX Loss Indicator" -> {
                    nibble(out, "Tx loss of signal", true, w >> 4, at);
                    nibble(out, "Rx loss of signal", true, w, at);
                }
                case "Latched Adaptive Equalization Fault" -> {
                    nibble(out, "Tx adaptive equalization fault", true, w >> 4, at);
                    nibble(out, "Tx fault", true, w, at);
                }
                case "Latched TX / RX LOL Indicator" -> {
                    nibble(out, "Tx loss of lock", true, w >> 4, at);
                    nibble(out, "Rx loss of lock", true, w, at);
                }
                case "Latched Temperature Alarm and Warning" -> levels(out, "temperature", w >> 4, List.of(), at);
                case "Latched Voltage Alarm and Warning" -> levels(out, "supply voltage", w >> 4, List.of(), at);
                case "RX Power Alarm and Warning" -> lanesOfWord(out, "RX power", w, at);
                case "TX Bias Alarm and Warning" -> lanesOfWord(out, "TX bias", w, at);
                case "TX Power Alarm and Warning" -> lanesOfWord(out, "TX power", w, at);
                default -> { }
            }
        }
        return out;
    }

    private static final String[] LEVELS = {"low warning", "high warning", "low alarm", "high alarm"};

    // bits 3..0 of the nibble are lanes 4..1
    private static void nibble(List<Flag> out, String what, boolean alarm, int bits, SourceRef at) {
        List<Integer> lanes = new ArrayList<>();
        for (int lane = 1; lane <= 4; lane++) if ((bits >> (lane - 1) & 1) != 0) lanes.add(lane);
        if (!lanes.isEmpty()) out.add(new Flag(what, alarm, lanes, at));
    }

    private static void levels(List<Flag> out, String what, int nibble, List<Integer> lanes, SourceRef at) {
        for (int b = 3; b >= 0; b--) if ((nibble >> b & 1) != 0) out.add(new Flag(what + " " + LEVELS[b], b >= 2, lanes, at));
    }

    // a 16-bit word: lane 1 in bits 15..12, lane 4 in bits 3..0; one flag per level with the lanes it is set on
    private static void lanesOfWord(List<Flag> out, String what, int word, SourceRef at) {
        for (int b = 3; b >= 0; b--) {
            List<Integer> lanes = new ArrayList<>();
            for (int lane = 1; lane <= 4; lane++) if ((word >> (4 * (4 - lane) + b) & 1) != 0) lanes.add(lane);
            if (!lanes.isEmpty()) out.add(new Flag(what + " " + LEVELS[b], b >= 2, lanes, at));
        }
    }

    /** 1,2,3,4 -> "1-4"; 1,3 -> "1,3". */
    public static String lanes(List<Integer> lanes) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lanes.size(); i++) {
            int j = i;
            while (j + 1 < lanes.size() && lanes.get(j + 1) == lanes.get(j) + 1) j++;
            if (sb.length() > 0) sb.append(',');
            sb.append(lanes.get(i));
            if (j > i + 1) sb.append('-').append(lanes.get(j));
            else if (j == i + 1) sb.append(',').append(lanes.get(j));
            i = j;
        }
        return sb.toString();
    }

    private double[] pair(String lowKey, String highKey, double divisor, boolean signed16) {
        Double lo = number(field(lowKey)), hi = number(field(highKey));
        if (lo == null || hi == null || lo == 0 && hi == 0) return null;
        double l = signed16 && lo >= 32768 && lo <= 65535 ? lo - 65536 : lo, h = signed16 && hi >= 32768 && hi <= 65535 ? hi - 65536 : hi;
        return new double[] {l / divisor, h / divisor};
    }

    private List<Double> lanes(String prefix, String suffix) {
        List<Double> out = new ArrayList<>();
        for (int lane = 1; fields.containsKey(prefix + lane + suffix); lane++) out.add(reading(field(prefix + lane + suffix)));
        return out;
    }

    /** "7.242 mA", "1.585 mW, 2.000 dBm": the first number; -999.999 (ibdiagnet's "not reported") and inf are null. */
    static Double reading(String v) {
        int sp = v.indexOf(' ');
        Double d = number(sp < 0 ? v : v.substring(0, sp));
        return d == null || d <= -999 ? null : d;
    }

    private Double celsius(String key) {
        String v = field(key);
        Double d = number(v.endsWith("C") ? v.substring(0, v.length() - 1) : v);
        // 0C: the module has no temperature monitor (what ibdiagnet prints for a passive cable)
        return d == null || d == 0 ? null : d;
    }

    static Double number(String v) {
        String t = v.trim();
        if (t.isEmpty() || !t.matches("[-+]?\\d+(\\.\\d+)?")) return null;
        return Double.parseDouble(t);
    }
}
