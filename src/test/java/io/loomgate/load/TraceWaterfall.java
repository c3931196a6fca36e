package io.loomgate.load;

import io.loomgate.json.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One trace as Jaeger's query API gives it ({@code GET /api/traces/ID}), drawn as a waterfall in
 * plain SVG: a row per span, indented under its parent, its bar where and as long as it ran. The
 * Jaeger built from the Go module proxy has no web UI; this draws the same data, for the docs.
 * <pre>{@code
 * curl -s localhost:16686/api/traces/ID > trace.json
 * java -cp target/test-classes:target/classes io.loomgate.load.TraceWaterfall trace.json docs/images/compose-trace.svg
 * }</pre>
 */
public final class TraceWaterfall {

    private static final int LABEL = 330;
    private static final int WIDTH = 560;
    private static final int ROW = 22;

    /** One span: its name, depth in the tree, start and length in microseconds, and whether it failed. */
    record Row(String name, int depth, long start, long duration, boolean error) {
    }

    private TraceWaterfall() {
    }

    /** The spans of the first trace in a Jaeger answer, parents before children, siblings by start. */
    @SuppressWarnings("unchecked")
    static List<Row> rows(String jaegerJson) {
        Map<String, Object> trace = (Map<String, Object>) ((List<Object>) JsonParser.parseObject(jaegerJson).get("data")).getFirst();
        List<Map<String, Object>> spans = (List<Map<String, Object>>) trace.get("spans");
        Map<String, Map<String, Object>> byId = new HashMap<>();
        spans.forEach(s -> byId.put((String) s.get("spanID"), s));
        Map<String, List<Map<String, Object>>> children = new HashMap<>();
        List<Map<String, Object>> roots = new ArrayList<>();
        for (Map<String, Object> s : spans) {
            List<Map<String, Object>> refs = (List<Map<String, Object>>) s.get("references");
            String parent = refs.isEmpty() ? null : (String) refs.getFirst().get("spanID");
            if (parent == null || !byId.containsKey(parent)) {
                roots.add(s);
            } else {
                children.computeIfAbsent(parent, k -> new ArrayList<>()).add(s);
            }
        }
        long t0 = spans.stream().mapToLong(s -> ((Number) s.get("startTime")).longValue()).min().orElse(0);
        List<Row> rows = new ArrayList<>();
        roots.sort(Comparator.comparingLong(s -> ((Number) s.get("startTime")).longValue()));
        roots.forEach(r -> walk(r, 0, t0, children, rows));
        return rows;
    }

    @SuppressWarnings("unchecked")
    private static void walk(Map<String, Object> s, int depth, long t0, Map<String, List<Map<String, Object>>> children, List<Row> rows) {
        boolean error = ((List<Map<String, Object>>) s.get("tags")).stream()
                .anyMatch(t -> t.get("key").equals("error") && Boolean.TRUE.equals(t.get("value")));
        String name = (String) s.get("operationName");
        String url = ((List<Map<String, Object>>) s.get("tags")).stream().filter(t -> t.get("key").equals("url.full"))
                .map(t -> (String) t.get("value")).findFirst().orElse("");
        if (!url.isEmpty()) {
            name = name + " " + url.replaceFirst("^https?://[^/]*", "");
        }
        rows.add(new Row(name, depth, ((Number) s.get("startTime")).longValue() - t0, ((Number) s.get("duration")).longValue(), error));
        List<Map<String, Object>> kids = new ArrayList<>(children.getOrDefault((String) s.get("spanID"), List.of()));
        kids.sort(Comparator.comparingLong(k -> ((Number) k.get("startTime")).longValue()));
        kids.forEach(k -> walk(k, depth + 1, t0, children, rows));
    }

    static String svg(List<Row> rows) {
        long total = rows.stream().mapToLong(r -> r.start() + r.duration()).max().orElse(1);
        int height = ROW * rows.size() + 40;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                LABEL + WIDTH + 70, height));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            int y = 10 + i * ROW;
            double x = LABEL + (double) r.start() / total * WIDTH;
            double w = Math.max(1, (double) r.duration() / total * WIDTH);
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", 6 + 14 * r.depth(), y + 14, escape(r.name())));
            sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"%s\"/>%n", x, y + 2, w,
                    r.error() ? "#c53030" : r.depth() == 0 ? "#2b6cb0" : r.depth() == 1 ? "#38a169" : "#805ad5"));
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" fill=\"#4a5568\">%.1f ms</text>%n", x + w + 4, y + 14,
                    r.duration() / 1000.0));
        }
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#4a5568\">0 to %.1f ms; blue: the request (server), green: "
                + "its calls, purple: their HTTP tries</text>%n", LABEL, height - 8, total / 1000.0));
        return sb.append("</svg>\n").toString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    public static void main(String[] args) throws Exception {
        Files.writeString(Path.of(args[1]), svg(rows(Files.readString(Path.of(args[0])))));
    }
}
