package io.loomgate.load;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The replicas scenario's chart as plain SVG: three panels over the run's seconds (answers 2xx per
 * second, failed requests per second, p99 in ms), one line per run, with the kill and the restart
 * marked.
 */
final class ReplicasChart {

    private static final String[] COLORS = {"#2b6cb0", "#38a169", "#dd6b20", "#718096"};
    private static final int LEFT = 70;
    private static final int WIDTH = 640;
    private static final int PANEL = 150;
    private static final int GAP = 50;
    private static final int TOP = 60;

    private ReplicasChart() {
    }

    static String svg(List<ReplicasReport.Run> runs, int killAt, int backAt, String footer) {
        int seconds = runs.stream().mapToInt(r -> r.seconds().size()).max().orElse(1);
        int height = TOP + 3 * (PANEL + GAP) + 30;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", LEFT + WIDTH + 40, height));
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\">A replica killed at %d s and restarted at %d s"
                + " (of three)</text>%n", LEFT, killAt, backAt));
        for (int i = 0; i < runs.size(); i++) {
            s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"34\" width=\"14\" height=\"4\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"40\">%s</text>%n", LEFT + i * 130, COLORS[i % COLORS.length], LEFT + i * 130 + 20,
                    runs.get(i).name()));
        }
        panel(s, runs, seconds, killAt, backAt, 0, "answers 2xx per second", ReplicasReport.Second::ok);
        panel(s, runs, seconds, killAt, backAt, 1, "failed requests per second", ReplicasReport.Second::failed);
        panel(s, runs, seconds, killAt, backAt, 2, "p99 (ms)", ReplicasReport.Second::p99Ms);
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#555\">%s</text>%n", LEFT, height - 10, xml(footer)));
        return s.append("</svg>\n").toString();
    }

    private static void panel(StringBuilder s, List<ReplicasReport.Run> runs, int seconds, int killAt, int backAt, int index,
                              String title, ToDoubleFunction<ReplicasReport.Second> value) {
        int top = TOP + index * (PANEL + GAP);
        double max = runs.stream().flatMap(r -> r.seconds().stream()).mapToDouble(value).max().orElse(1);
        max = max <= 0 ? 1 : max * 1.1;
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", LEFT, top - 8, title));
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#ccc\"/>%n",
                LEFT, top, WIDTH, PANEL));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%,.0f</text>%n", LEFT - 6, top + 10, max));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>%n", LEFT - 6, top + PANEL));
        for (int[] mark : new int[][] {{killAt, 0}, {backAt, 1}}) {
            double x = LEFT + WIDTH * (double) mark[0] / seconds;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c53030\" "
                    + "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" fill=\"#c53030\">%s</text>%n", x, top, x, top + PANEL,
                    x + 3, top + 12, mark[1] == 0 ? "killed" : "restarted"));
        }
        for (int i = 0; i < runs.size(); i++) {
            StringBuilder points = new StringBuilder();
            for (ReplicasReport.Second sec : runs.get(i).seconds()) {
                double x = LEFT + WIDTH * (sec.second() + 0.5) / seconds;
                double y = top + PANEL - PANEL * value.applyAsDouble(sec) / max;
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            }
            s.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>%n",
                    COLORS[i % COLORS.length], points.toString().strip()));
        }
        for (int t = 0; t <= seconds; t += 5) {
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%d</text>%n",
                    LEFT + WIDTH * (double) t / seconds, top + PANEL + 14, t));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">seconds</text>%n",
                LEFT + WIDTH / 2, top + PANEL + 30));
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
