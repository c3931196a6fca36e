package io.loomgate.load;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's chart as plain SVG, with no dependency: one row per run, a bar for its rps (2xx) on
 * the left and one for its p99 latency on the right, coloured by mode. Both axes are logarithmic
 * (decade gridlines), because {@code /health} answers in microseconds at tens of thousands per
 * second while {@code /block} waits 300 ms.
 */
final class ReportChart {

    private static final Map<String, String> COLORS = Map.of(
            "virtual", "#2b6cb0", "platform", "#dd6b20", "bare", "#718096");
    private static final int LABEL_WIDTH = 300;
    private static final int PANEL_WIDTH = 320;
    private static final int GAP = 40;
    private static final int ROW = 20;
    private static final int TOP = 70;

    private ReportChart() {
    }

    static String svg(List<LoadReport.Row> rows, String title) {
        int width = LABEL_WIDTH + 2 * PANEL_WIDTH + 2 * GAP;
        int height = TOP + rows.size() * ROW + 30;
        double rpsDecades = decades(rows.stream().mapToDouble(r -> r.run().okRps()).max().orElse(1));
        double p99Decades = decades(rows.stream().mapToDouble(r -> r.run().p99Ms()).max().orElse(1));
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height, width, height));
        s.append(String.format("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        s.append(String.format("<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>%n", xml(title)));
        int rpsX = LABEL_WIDTH;
        int p99X = LABEL_WIDTH + PANEL_WIDTH + GAP;
        s.append(String.format("<text x=\"%d\" y=\"50\" font-weight=\"bold\">requests/s (2xx), log scale</text>%n", rpsX));
        s.append(String.format("<text x=\"%d\" y=\"50\" font-weight=\"bold\">p99 latency (ms), log scale</text>%n", p99X));
        grid(s, rpsX, rpsDecades, height);
        grid(s, p99X, p99Decades, height);
        int legendX = 10;
        for (String mode : List.of("virtual", "platform", "bare")) {
            s.append(String.format("<rect x=\"%d\" y=\"38\" width=\"12\" height=\"12\" fill=\"%s\"/>", legendX, COLORS.get(mode)));
            s.append(String.format("<text x=\"%d\" y=\"49\">%s</text>%n", legendX + 16, mode));
            legendX += 90;
        }
        for (int i = 0; i < rows.size(); i++) {
            RunResult r = rows.get(i).run();
            int y = TOP + i * ROW;
            String color = COLORS.getOrDefault(r.mode(), "#333333");
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s %s c=%d</text>%n",
                    LABEL_WIDTH - 10, y + 13, xml(r.endpoint()), r.mode(), r.connections()));
            bar(s, rpsX, y, scaled(r.okRps(), rpsDecades), color, String.format(Locale.ROOT, "%.0f", r.okRps()));
            bar(s, p99X, y, scaled(r.p99Ms(), p99Decades), color, String.format(Locale.ROOT, "%.0f", r.p99Ms()));
        }
        return s.append("</svg>\n").toString();
    }

    /** Decades from 1 to the first power of ten at or above {@code max}. */
    private static double decades(double max) {
        return Math.max(1, Math.ceil(Math.log10(Math.max(max, 1))));
    }

    /** Where {@code value} falls between 1 and 10^decades, from 0 to 1. */
    private static double scaled(double value, double decades) {
        return Math.log10(Math.max(value, 1)) / decades;
    }

    private static void grid(StringBuilder s, int x, double decades, int height) {
        for (int d = 0; d <= decades; d++) {
            int gx = x + (int) Math.round(d / decades * (PANEL_WIDTH - 60));
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#e2e8f0\"/>",
                    gx, TOP - 4, gx, height - 24));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#4a5568\" "
                    + "text-anchor=\"middle\">%s</text>%n", gx, height - 10, (long) Math.pow(10, d)));
        }
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
