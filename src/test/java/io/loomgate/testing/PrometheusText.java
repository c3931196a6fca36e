package io.loomgate.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text exposition format 0.0.4, for tests. It fails, naming the
 * line, on anything a scraper could reject or misread: bad names or escapes, a sample before its
 * TYPE, a family split in two, a duplicate series, non-cumulative histogram buckets, a {@code +Inf}
 * bucket that differs from {@code _count}. On top of the format it checks loomgate's conventions:
 * {@code loomgate_} prefix, {@code _total} on counters only, {@code _seconds} on durations.
 */
public final class PrometheusText {

    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    /** One sample line: name, labels (in order), value. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final Map<String, String> types = new HashMap<>();
    private final Map<String, String> helps = new HashMap<>();
    private final List<Sample> samples = new ArrayList<>();
    private final Set<String> closedFamilies = new HashSet<>();
    private String currentFamily;
    private int lineNumber;

    private PrometheusText() {
    }

    /** Parses and checks {@code text}; throws {@link AssertionError} naming the first problem. */
    public static PrometheusText parse(String text) {
        PrometheusText p = new PrometheusText();
        if (!text.isEmpty() && !text.endsWith("\n")) {
            throw new AssertionError("the exposition must end with a newline");
        }
        for (String line : text.split("\n", -1)) {
            p.lineNumber++;
            if (!line.isEmpty()) {
                p.line(line);
            }
        }
        p.checkHistograms();
        return p;
    }

    public List<Sample> samples() {
        return List.copyOf(samples);
    }

    public Map<String, String> types() {
        return Map.copyOf(types);
    }

    /** The value of the one sample with this name and these labels. */
    public double value(String name, Map<String, String> labels) {
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels))
                .map(Sample::value).findFirst()
                .orElseThrow(() -> new AssertionError("no sample " + name + labels));
    }

    private void line(String line) {
        if (line.startsWith("#")) {
            comment(line);
            return;
        }
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        int nameEnd = brace >= 0 && brace < space ? brace : space;
        check(nameEnd > 0, "no metric name");
        String name = line.substring(0, nameEnd);
        check(METRIC_NAME.matcher(name).matches(), "bad metric name '" + name + "'");
        Map<String, String> labels = new LinkedHashMap<>();
        int pos = nameEnd;
        if (line.charAt(pos) == '{') {
            pos = labels(line, pos + 1, labels);
        }
        check(line.charAt(pos) == ' ', "expected a space before the value");
        String[] rest = line.substring(pos + 1).split(" ");
        check(rest.length == 1 || rest.length == 2, "expected a value and an optional timestamp");
        double value = number(rest[0]);
        String family = familyOf(name);
        check(types.containsKey(family), "sample " + name + " comes before its # TYPE line");
        check(!closedFamilies.contains(family), "family " + family + " is split in two");
        if (!family.equals(currentFamily) && currentFamily != null) {
            closedFamilies.add(currentFamily);
        }
        currentFamily = family;
        Sample sample = new Sample(name, labels, value);
        check(samples.stream().noneMatch(s -> s.name().equals(name) && s.labels().equals(labels)),
                "duplicate series " + name + labels);
        samples.add(sample);
    }

    private void comment(String line) {
        String[] parts = line.split(" ", 4);
        check(parts.length >= 3 && parts[0].equals("#") && (parts[1].equals("HELP") || parts[1].equals("TYPE")),
                "only # HELP and # TYPE comments are expected");
        String name = parts[2];
        check(METRIC_NAME.matcher(name).matches(), "bad metric name in comment '" + name + "'");
        check(name.startsWith("loomgate_"), name + " lacks the loomgate_ prefix");
        if (parts[1].equals("HELP")) {
            check(!helps.containsKey(name), "second HELP for " + name);
            String help = parts.length == 4 ? parts[3] : "";
            for (int i = 0; i < help.length(); i++) {
                if (help.charAt(i) == '\\') {
                    check(i + 1 < help.length() && "\\n".indexOf(help.charAt(i + 1)) >= 0, "bad escape in HELP");
                    i++;
                }
            }
            helps.put(name, help);
            return;
        }
        check(parts.length == 4 && TYPES.contains(parts[3]), "bad TYPE line");
        check(!types.containsKey(name), "second TYPE for " + name);
        check(samples.stream().noneMatch(s -> familyOf(s.name()).equals(name)), "TYPE after samples of " + name);
        String type = parts[3];
        check(type.equals("counter") == name.endsWith("_total"), "_total is for counters, and counters need it: " + name);
        if (name.contains("duration") || name.contains("_time_")) {
            check(name.endsWith("_seconds") || name.endsWith("_seconds_total"), "durations are in seconds: " + name);
        }
        types.put(name, type);
    }

    private int labels(String line, int pos, Map<String, String> labels) {
        while (line.charAt(pos) != '}') {
            int eq = line.indexOf('=', pos);
            check(eq > pos, "expected label=\"value\"");
            String label = line.substring(pos, eq);
            check(LABEL_NAME.matcher(label).matches() && !label.startsWith("__"), "bad label name '" + label + "'");
            check(line.charAt(eq + 1) == '"', "label value must be quoted");
            StringBuilder value = new StringBuilder();
            int i = eq + 2;
            for (; line.charAt(i) != '"'; i++) {
                char c = line.charAt(i);
                if (c == '\\') {
                    char e = line.charAt(++i);
                    check(e == '\\' || e == '"' || e == 'n', "bad escape \\" + e + " in label value");
                    value.append(e == 'n' ? '\n' : e);
                } else {
                    value.append(c);
                }
            }
            check(labels.put(label, value.toString()) == null, "label " + label + " given twice");
            pos = i + 1;
            if (line.charAt(pos) == ',') {
                pos++;
            }
        }
        return pos + 1;
    }

    private double number(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> {
                check(text.matches("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?"), "bad value '" + text + "'");
                yield Double.parseDouble(text);
            }
        };
    }

    private String familyOf(String sampleName) {
        for (String suffix : List.of("_bucket", "_sum", "_count")) {
            if (sampleName.endsWith(suffix)) {
                String base = sampleName.substring(0, sampleName.length() - suffix.length());
                if ("histogram".equals(types.get(base))) {
                    return base;
                }
            }
        }
        return sampleName;
    }

    /** Every histogram series: buckets ascending by le, cumulative, +Inf present and equal to _count. */
    private void checkHistograms() {
        types.forEach((family, type) -> {
            if (!type.equals("histogram")) {
                return;
            }
            Map<Map<String, String>, TreeMap<Double, Double>> buckets = new HashMap<>();
            for (Sample s : samples) {
                if (s.name().equals(family + "_bucket")) {
                    Map<String, String> series = new TreeMap<>(s.labels());
                    String le = series.remove("le");
                    check(le != null, "bucket without le in " + family);
                    TreeMap<Double, Double> b = buckets.computeIfAbsent(series, k -> new TreeMap<>());
                    double bound = number(le);
                    if (!b.isEmpty()) {
                        check(bound > b.lastKey(), family + series + ": le values must ascend");
                    }
                    b.put(bound, s.value());
                }
            }
            buckets.forEach((series, b) -> {
                double previous = 0;
                for (double count : b.values()) {
                    check(count >= previous, family + series + ": buckets must be cumulative");
                    previous = count;
                }
                check(b.lastKey() == Double.POSITIVE_INFINITY, family + series + ": no +Inf bucket");
                double count = value(family + "_count", series);
                check(b.lastEntry().getValue() == count, family + series + ": +Inf bucket != _count");
                value(family + "_sum", series);
            });
        });
    }

    private void check(boolean ok, String problem) {
        if (!ok) {
            throw new AssertionError("line " + lineNumber + ": " + problem);
        }
    }
}
