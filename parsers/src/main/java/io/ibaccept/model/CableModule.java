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
        fields = Map.copyOf(fields);
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
