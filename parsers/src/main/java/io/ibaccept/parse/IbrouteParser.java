package io.ibaccept.parse;

import io.ibaccept.model.ForwardingTables;
import io.ibaccept.model.Lft;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Unicast forwarding tables as infiniband-diags prints them: ibroute one switch (ibroute.c), dump_fts every switch
 * found by a fabric scan (dump_fts.c), in the same format opensm reads back with '-R file -U'. Per switch a heading
 * "Unicast lids [0x0-0x16] of switch Lid 4 guid 0x... (leaf01):" (dump_fts: "of switch DR path slid 0; dlid 0; 0,1,33
 * guid ..."), two column headings, one "0x0001 033 : (Channel Adapter portguid 0x...: 'node01 HCA-1')" line per routed
 * LID ("(path #2 out of 4: portguid 0x...)" for the further LIDs of an LMC range, "(illegal port)" for an entry -a
 * shows that routes nowhere, "(unknown node and type)" / "(node info not available fabric scan)" for a LID no node
 * answers), then "N valid lids dumped". An unreadable line is an issue and the table goes on; a line before any heading
 * belongs to no switch. A table without its "lids dumped" line was cut short (ibroute stops a switch whose LFT block
 * failed; a truncated file) and is not used. dump_fts goes on after a failed LFT block and prints the block from a
 * stale buffer; its stderr line "SubnGet(LFT) failed on switch 'NAME' ... Node GUID 0x..." (which the collect script
 * appends to the output) names the switch whose table is not used.
 */
public final class IbrouteParser {
    private IbrouteParser() {}

    private static final Pattern HEAD = Pattern.compile("^Unicast lids \\[\\S+\\] of switch (.*?) guid (0x[0-9a-fA-F]{1,16}) \\((.*)\\):\\s*$");
    private static final Pattern HEAD_LID = Pattern.compile("^Lid (\\d{1,5})$");
    private static final Pattern NODE = Pattern.compile("^(Channel Adapter|Switch|Router) portguid (0x[0-9a-fA-F]{1,16}): (.*)$");
    private static final Pattern FAILED = Pattern.compile("SubnGet\\(LFT\\) failed on switch '(.*)' .*Node GUID (0x[0-9a-fA-F]{1,16})");
    private static final Pattern PATH = Pattern.compile("^path #\\d+ out of \\d+(?:: portguid (0x[0-9a-fA-F]+))?$");

    /** One switch's table (ibroute). */
    public static Lft parse(Text t, Issues issues) {
        List<Lft> tables = tables(t, issues, new ForwardingTables.Destination[Lft.MAX_UNICAST_LID + 1]);
        if (tables.isEmpty()) throw t.error(0, "no 'Unicast lids ... of switch' heading");
        if (tables.size() > 1) issues.add(t, tables.get(1).ref().line(), "ibroute printed " + tables.size() + " tables; the first is read");
        return tables.get(0);
    }

    /** Every switch's table and what each LID is (dump_fts). */
    public static ForwardingTables fabric(Text t, Issues issues) {
        ForwardingTables.Destination[] byLid = new ForwardingTables.Destination[Lft.MAX_UNICAST_LID + 1];
        List<Lft> tables = tables(t, issues, byLid);
        if (tables.isEmpty()) throw t.error(0, "no 'Unicast lids ... of switch' heading");
        Map<Integer, ForwardingTables.Destination> dests = new HashMap<>();
        for (ForwardingTables.Destination d : byLid) if (d != null) dests.put(d.lid(), d);
        return new ForwardingTables(tables, dests);
    }

    /** dests: what each LID is, by LID, filled in as the entries name them. */
    private static List<Lft> tables(Text t, Issues issues, ForwardingTables.Destination[] dests) {
        List<Lft> out = new ArrayList<>();
        Map<Long, Integer> failed = new java.util.LinkedHashMap<>();
        Table table = null;
        Map<Long, Lft> byGuid = new HashMap<>();
        boolean ended = false, skipping = false;
        // the destination of the entry before, whose LMC range the next LIDs may continue
        ForwardingTables.Destination lastPort = null;
        Text.Cursor c = t.cursor();
        while (c.next()) {
            // "0x0001 033 : (...)": read by hand first, without a pattern or a copy of the line: a 2,000-switch dump
            // has millions of these lines
            CharSequence chars = c.chars();
            if (chars.length() >= 2 && chars.charAt(0) == '0' && chars.charAt(1) == 'x') {
                lastPort = entry(chars, t, c, table, skipping, issues, dests, lastPort);
                continue;
            }
            String line = c.line();
            String trimmed = line.trim();
            if (trimmed.endsWith("lids dumped")) {
                ended = true;
                continue;
            }
            if (trimmed.isEmpty() || trimmed.startsWith("Lid  Out") || trimmed.startsWith("Lid Out") || trimmed.startsWith("Port     Info")
                    || trimmed.startsWith("Port Info") || line.startsWith("ibwarn:")) continue;
            Matcher fail = FAILED.matcher(line);
            if (fail.find()) {
                try {
                    failed.putIfAbsent(Long.parseUnsignedLong(fail.group(2).substring(2), 16), c.number());
                    issues.add(t, c.number(), "dump_fts could not read the forwarding table of switch '" + fail.group(1)
                            + "' (SubnGet(LFT) failed): what it printed for it is not used");
                } catch (NumberFormatException bad) {
                    issues.add(t, c.number(), "unreadable switch GUID in '" + Text.excerpt(line) + "'");
                }
                continue;
            }
            Matcher h = HEAD.matcher(line);
            if (!h.matches() && line.startsWith("Unicast lids")) {
                // a heading that cannot be read: its entries would otherwise join the table before it
                if (table != null) keep(out, byGuid, table, ended, t, issues);
                table = null;
                skipping = true;
                issues.add(t, c.number(), "unreadable forwarding table heading '" + Text.excerpt(line) + "': the table is skipped");
                continue;
            }
            if (h.matches()) {
                if (table != null) keep(out, byGuid, table, ended, t, issues);
                ended = false;
                skipping = false;
                Matcher lid = HEAD_LID.matcher(h.group(1));
                long guid;
                try {
                    guid = Long.parseUnsignedLong(h.group(2).substring(2), 16);
                } catch (NumberFormatException bad) {
                    issues.add(t, c.number(), "unreadable switch GUID in '" + Text.excerpt(line) + "': the table is skipped");
                    table = null;
                    skipping = true;
                    continue;
                }
                table = new Table(new Lft.Builder(lid.matches() ? Integer.parseInt(lid.group(1)) : 0, guid, h.group(3), new SourceRef(t.name(), c.number())));
                lastPort = null;
                continue;
            }
            if (!skipping) issues.add(t, c.number(), "unrecognised forwarding table line: '" + Text.excerpt(line) + "'");
        }
        if (table != null) keep(out, byGuid, table, ended, t, issues);
        out.removeIf(l -> failed.containsKey(l.switchGuid()) || l == CONFLICTING);
        return out;
    }

    /**
     * One "0x0001 033 : (Channel Adapter portguid 0x...: 'node01 HCA-1')" line into the table and the destinations.
     * last: the destination of the entry before; returns the one the next entry continues (an LMC range), or null.
     */
    private static ForwardingTables.Destination entry(CharSequence line, Text t, Text.Cursor c, Table table, boolean skipping, Issues issues,
                                                      ForwardingTables.Destination[] dests, ForwardingTables.Destination last) {
        int lid = -1, port = -1, infoFrom = -1, infoTo = -1, len = line.length();
        int sp = 2;
        while (sp < len && sp <= 6 && line.charAt(sp) != ' ') sp++;
        if (len >= 10 && sp > 2 && sp <= 6 && len >= sp + 4) {
            lid = hex(line, 2, sp);
            port = Nums.digits(line, sp + 1, sp + 4);
            int end = len;
            while (end > sp + 4 && Character.isWhitespace(line.charAt(end - 1))) end--;
            if (end == sp + 4) infoFrom = infoTo = end;
            else if (regionMatches(line, sp + 4, " : (") && line.charAt(end - 1) == ')' && end - 1 >= sp + 8) {
                infoFrom = sp + 8;
                infoTo = end - 1;
            }
        }
        if (lid < 0 || port < 0 || infoFrom < 0) {
            if (!skipping) issues.add(t, c.number(), "unrecognised forwarding table line: '" + Text.excerpt(c.line()) + "'");
            return last;
        }
        if (table == null) {
            if (!skipping) issues.add(t, c.number(), "forwarding table entry before any 'Unicast lids ... of switch' heading: '" + Text.excerpt(c.line()) + "'");
            return last;
        }
        // ibroute's "(illegal port)" and "(path #1 - illegal port)": the text ends the entry
        if (infoTo - infoFrom >= 12 && regionMatches(line, infoTo - 12, "illegal port")) return last;
        if (port > Lft.MAX_PORT || lid > Lft.MAX_UNICAST_LID) {
            if (table.outOfRange++ == 0) table.outOfRangeLine = c.number();
            return last;
        }
        int before = table.lft.put(lid, port);
        if (before >= 0) {
            if (table.repeated++ == 0) table.repeatedLine = c.number();
            if (before != port) table.conflicting = true;
            return last;
        }
        ForwardingTables.Destination known = dests[lid];
        if (known != null) return known;
        String info = line.subSequence(infoFrom, infoTo).toString();
        Matcher node = NODE.matcher(info);
        if (node.matches()) {
            ForwardingTables.Destination d = new ForwardingTables.Destination(lid, node.group(1), Long.parseUnsignedLong(node.group(2).substring(2), 16), unquote(node.group(3)));
            dests[lid] = d;
            return d;
        }
        // the further LIDs of an LMC range follow their port's base LID
        if (PATH.matcher(info).matches() && last != null) {
            dests[lid] = new ForwardingTables.Destination(lid, last.type(), last.portGuid(), last.description());
            return last;
        }
        return null;
    }

    /** Whether s holds what at from. */
    private static boolean regionMatches(CharSequence s, int from, String what) {
        if (from < 0 || from + what.length() > s.length()) return false;
        for (int i = 0; i < what.length(); i++) if (s.charAt(from + i) != what.charAt(i)) return false;
        return true;
    }

    /** Marks, in the list of tables, a switch whose table was given twice with different routes: neither copy is used. */
    private static final Lft CONFLICTING = new Lft.Builder(0, 0, "", new SourceRef("", 0)).build();

    /** The table being read and what was wrong with its entries. */
    private static final class Table {
        final Lft.Builder lft;
        int outOfRange, outOfRangeLine, repeated, repeatedLine;
        boolean conflicting;

        Table(Lft.Builder lft) {
            this.lft = lft;
        }
    }

    private static void keep(List<Lft> out, Map<Long, Lft> byGuid, Table table, boolean ended, Text t, Issues issues) {
        Lft l = table.lft.build();
        String sw = "switch '" + l.switchName() + "'";
        if (table.outOfRange > 0)
            issues.add(t, table.outOfRangeLine, table.outOfRange + " entr" + (table.outOfRange == 1 ? "y" : "ies") + " of the forwarding table of "
                    + sw + " name a LID above the unicast range (0xbfff) or a port above " + Lft.MAX_PORT + ": not used");
        if (table.repeated > 0) {
            issues.add(t, table.repeatedLine, "the forwarding table of " + sw + " lists " + table.repeated + " LID" + (table.repeated == 1 ? "" : "s")
                    + " again" + (table.conflicting ? " with another output port; a switch holds one port per LID, so the table is not used"
                    : " with the same port"));
            if (table.conflicting) return;
        }
        if (!ended) {
            issues.add(t, l.ref().line(), "the forwarding table of " + sw + " ends without its 'lids dumped' line (cut short): not used");
            return;
        }
        Lft first = byGuid.get(l.switchGuid());
        if (first == null) {
            byGuid.put(l.switchGuid(), l);
            out.add(l);
            return;
        }
        if (first == CONFLICTING) return;
        boolean same = first.sameRoutes(l);
        issues.add(t, l.ref().line(), "the forwarding table of " + sw + " is given again (first at line " + first.ref().line() + ")"
                + (same ? " with the same routes: the first is used" : " with other routes: neither copy is used, the switch has no table to judge"));
        if (!same) {
            out.set(out.indexOf(first), CONFLICTING);
            byGuid.put(l.switchGuid(), CONFLICTING);
        }
    }

    /** The hexadecimal number in s[from, to), -1 when it is not one (ASCII digits only, as ibroute prints them). */
    private static int hex(CharSequence s, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            char ch = s.charAt(i);
            int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
            if (d < 0) return -1;
            v = v * 16 + d;
        }
        return v;
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("'") && s.endsWith("'") ? s.substring(1, s.length() - 1) : s;
    }
}
