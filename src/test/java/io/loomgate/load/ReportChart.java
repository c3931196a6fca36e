package io.loomgate.load;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's chart as plain SVG, with no dependency. Rows are grouped by scenario: each loomgate
 * endpoint at one concurrency, with its runs in both modes and the bare server's run that does the
 * same waiting at that concurrency. Within a group both panels, requests/s (2xx) on the left and p99 on the right,
 * are on a linear scale from zero, so bars compare at a glance; groups have scales of their own
 * ({@code /health} answers tens of thousands a second, {@code /block} a few thousand), and each
 * group's heading says what a full bar is in each panel. A row whose
 * answers were mostly not 2xx is marked. The JDK, the run length and the command are printed below.
 */
final class ReportChart {

    private static final Map<String, String> COLORS = Map.of(
            "virtual", "#2b6cb0", "platform", "#dd6b20", "bare", "#718096");
    private static final int LABEL_WIDTH = 300;
    private static final int PANEL_WIDTH = 320;
    private static final int GAP = 40;
    private static final int ROW = 20;
    private static final int GROUP_HEAD = 26;
    private static final int TOP = 64;

    private ReportChart() {
    }

    static String svg(List<LoadReport.Row> rows, Map<String, Object> machine) {
        Map<String, List<LoadReport.Row>> groups = groups(rows);
        int lines = groups.values().stream().mapToInt(List::size).sum();
        int width = LABEL_WIDTH + 2 * PANEL_WIDTH + 2 * GAP;
        int height = TOP + lines * ROW + groups.size() * GROUP_HEAD + 60;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height, width, height));
        s.append(String.format("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        String title = "loomgate under wrk, " + machine.getOrDefault("cores", "?") + " cores, " + machine.getOrDefault("date", "");
        s.append(String.format("<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>%n", xml(title)));
        int rpsX = LABEL_WIDTH;
        int p99X = LABEL_WIDTH + PANEL_WIDTH + GAP;
        s.append(String.format("<text x=\"%d\" y=\"50\" font-weight=\"bold\">requests/s (2xx), linear, each group to its own scale</text>%n", rpsX));
        s.append(String.format("<text x=\"%d\" y=\"50\" font-weight=\"bold\">p99 latency (ms), linear, each group to its own scale</text>%n", p99X));
        int legendX = 10;
        for (String mode : List.of("virtual", "platform", "bare")) {
            s.append(String.format("<rect x=\"%d\" y=\"38\" width=\"12\" height=\"12\" fill=\"%s\"/>", legendX, COLORS.get(mode)));
            s.append(String.format("<text x=\"%d\" y=\"49\">%s</text>%n", legendX + 16, mode));
            legendX += 90;
        }
        int y = TOP;
        for (Map.Entry<String, List<LoadReport.Row>> group : groups.entrySet()) {
            List<LoadReport.Row> members = group.getValue();
            double maxRps = members.stream().mapToDouble(r -> r.run().okRps()).max().orElse(1);
            double maxP99 = members.stream().mapToDouble(r -> r.run().p99Ms()).max().orElse(1);
            s.append(String.format(Locale.ROOT, "<line x1=\"10\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#cbd5e0\"/>",
                    y + 2, width - 10, y + 2));
            s.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">%s</text>%n",
                    y + 18, xml(group.getKey())));
            // Each group has its own scale: say what a full bar is, so a short bar is never read against another group's.
            s.append(String.format(Locale.ROOT, "<text class=\"scale\" x=\"%d\" y=\"%d\" fill=\"#4a5568\">full bar: %,.0f rps</text>%n",
                    rpsX, y + 18, maxRps));
            s.append(String.format(Locale.ROOT, "<text class=\"scale\" x=\"%d\" y=\"%d\" fill=\"#4a5568\">full bar: %,.0f ms</text>%n",
                    p99X, y + 18, maxP99));
            y += GROUP_HEAD;
            for (LoadReport.Row row : members) {
                RunResult r = row.run();
                String color = COLORS.getOrDefault(r.mode(), "#333333");
                boolean mostlyFailed = r.errors().getOrDefault("status", 0L) * 2 > r.requests();
                s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\"%s>%s%s %s c=%d</text>%n",
                        LABEL_WIDTH - 10, y + 13, mostlyFailed ? " fill=\"#c53030\"" : "",
                        mostlyFailed ? "mostly non-2xx! " : "", xml(r.endpoint()), r.mode(), r.connections()));
                bar(s, rpsX, y, r.okRps() / maxRps, color, String.format(Locale.ROOT, "%,.0f", r.okRps()));
                bar(s, p99X, y, r.p99Ms() / maxP99, color, String.format(Locale.ROOT, "%,.0f", r.p99Ms()));
                y += ROW;
            }
        }
        String footer = String.format("%s; %s s per run after a warm-up; wrk %s threads; %s",
                machine.getOrDefault("jdk", "JDK ?"), machine.getOrDefault("seconds", "?"),
                machine.getOrDefault("wrkThreads", "?"), machine.getOrDefault("command", "scripts/load"));
        s.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\" font-size=\"11\" fill=\"#4a5568\">%s</text>%n",
                height - 20, xml(footer)));
        return s.append("</svg>\n").toString();
    }

    /**
     * Each loomgate endpoint at each concurrency with its runs, then the bare run of its bare
     * equivalent at that concurrency (a bare run may serve several groups); bare runs no group
     * claims get their own.
     */
    private static Map<String, List<LoadReport.Row>> groups(List<LoadReport.Row> rows) {
        Map<String, List<LoadReport.Row>> groups = new LinkedHashMap<>();
        Map<String, LoadReport.Row> first = new LinkedHashMap<>();
        for (LoadReport.Row row : rows) {
            if (!row.run().mode().equals("bare")) {
                String key = row.run().endpoint() + ", c=" + row.run().connections();
                groups.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
                first.putIfAbsent(key, row);
            }
        }
        List<LoadReport.Row> claimed = new ArrayList<>();
        for (Map.Entry<String, List<LoadReport.Row>> g : groups.entrySet()) {
            RunResult lead = first.get(g.getKey()).run();
            String bare = DesignedLatency.bareEquivalent(lead.endpoint());
            for (LoadReport.Row row : rows) {
                if (row.run().mode().equals("bare") && row.run().endpoint().equals(bare)
                        && row.run().connections() == lead.connections()) {
                    g.getValue().add(row);
                    claimed.add(row);
                }
            }
        }
        for (LoadReport.Row row : rows) {
            if (row.run().mode().equals("bare") && !claimed.contains(row)) {
                groups.computeIfAbsent(row.run().endpoint() + ", c=" + row.run().connections() + " (bare)",
                        k -> new ArrayList<>()).add(row);
            }
        }
        return groups;
    }

    private static void bar(StringBuilder s, int x, int y, double fraction, String color, String label) {
        int w = (int) Math.max(1, Math.round(fraction * (PANEL_WIDTH - 60)));
        s.append(String.format(Locale.ROOT, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>",
                x, y + 3, w, ROW - 6, color));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", x + w + 4, y + 13, label));
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
