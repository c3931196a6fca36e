package io.loomgate.load;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Draws the tail scenario's chart: per route, three latency bars on a shared log scale in ms. */
final class TailChart {

    private static final String[] COLORS = {"#90cdf4", "#3182ce", "#1a365d"};
    private static final String[] LABELS = {"p50", "p99", "p99.9"};
    private static final int LABEL_WIDTH = 190;
    private static final int PANEL_WIDTH = 520;
    private static final int BAR = 16;
    private static final int GROUP = 3 * BAR + 18;
    private static final int TOP = 78;
    private static final double DECADES = 4;   // 1 ms to 10 s

    private TailChart() {
    }

    static String svg(List<TailReport.Row> rows, Map<String, String> names, String title, String footer) {
        int width = LABEL_WIDTH + PANEL_WIDTH + 200;
        int height = TOP + rows.size() * GROUP + 50;
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">%n<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n",
                width, height, width, height, width, height));
        s.append(String.format("<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>%n", xml(title)));
        s.append(String.format("<text x=\"%d\" y=\"62\" font-weight=\"bold\">latency (ms), log scale</text>", LABEL_WIDTH));
        s.append(String.format("<text x=\"%d\" y=\"62\" font-weight=\"bold\">extra upstream requests</text>%n",
                LABEL_WIDTH + PANEL_WIDTH + 20));
        for (int i = 0; i < LABELS.length; i++) {
            s.append(String.format("<rect x=\"%d\" y=\"34\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"45\">%s</text>%n",
                    10 + i * 70, COLORS[i], 26 + i * 70, LABELS[i]));
        }
        for (int d = 0; d <= DECADES; d++) {
            int x = LABEL_WIDTH + (int) Math.round(d / DECADES * PANEL_WIDTH);
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#e2e8f0\"/>"
                    + "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#4a5568\" text-anchor=\"middle\">%s</text>%n",
                    x, TOP - 4, x, height - 40, x, height - 28, (long) Math.pow(10, d)));
        }
        for (int g = 0; g < rows.size(); g++) {
            TailReport.Row row = rows.get(g);
            int y = TOP + g * GROUP;
            s.append(String.format("<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-weight=\"bold\">%s</text>",
                    LABEL_WIDTH - 10, y + BAR + 10, xml(names.getOrDefault(row.run().endpoint(), row.run().endpoint()))));
            s.append(String.format("<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#4a5568\">%s</text>%n",
                    LABEL_WIDTH - 10, y + 2 * BAR + 12, xml(row.run().endpoint())));
            double[] ms = {row.run().p50Ms(), row.run().p99Ms(), row.p999Ms()};
            for (int b = 0; b < ms.length; b++) {
                int w = (int) Math.max(1, Math.round(Math.log10(Math.max(ms[b], 1)) / DECADES * PANEL_WIDTH));
                int by = y + b * BAR;
                s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>"
                        + "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s %.1f ms</text>%n",
                        LABEL_WIDTH, by + 1, w, BAR - 2, COLORS[b], LABEL_WIDTH + w + 4, by + 12, LABELS[b], ms[b]));
            }
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"13\">+%.1f%%</text>%n",
                    LABEL_WIDTH + PANEL_WIDTH + 20, y + BAR + 10, row.extraPercent()));
        }
        s.append(String.format("<text x=\"10\" y=\"%d\" font-size=\"10\" fill=\"#4a5568\">%s</text>%n", height - 8, xml(footer)));
        return s.append("</svg>\n").toString();
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
