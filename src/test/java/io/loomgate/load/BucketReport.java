package io.loomgate.load;

import io.loomgate.testing.HistogramQuantile;
import io.loomgate.testing.PrometheusText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The buckets scenario's report: for each load, wrk's p99 beside Prometheus's
 * {@code histogram_quantile(0.99, ...)} over the increase of loomgate's buckets during the run, and
 * how far apart they are. The target: within 5%.
 *
 * @param rows one per load, in the order they ran
 */
record BucketReport(List<Row> rows, Map<String, Object> machine) {

    static final double TARGET = 0.05;

    /**
     * @param wrkP99Ms        wrk's own p99
     * @param prometheusP99Ms the estimate from the buckets
     * @param serverP99Ms     the exact p99 of loomgate's own timings (its access log), NaN without them
     */
    record Row(RunResult run, double wrkP99Ms, double prometheusP99Ms, double serverP99Ms) {
        double serverError() {
            return Math.abs(prometheusP99Ms - serverP99Ms) / serverP99Ms;
        }

        double error() {
            return Math.abs(prometheusP99Ms - wrkP99Ms) / wrkP99Ms;
        }
    }

    /** Reads {@code run-NNN-*.json}, {@code prom-before-NNN.txt} and {@code prom-after-NNN.txt} from {@code dir}. */
    static BucketReport read(Path dir, List<RunResult> runs, Map<String, Object> machine) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            String n = String.format("%03d", i + 1);
            PrometheusText before = PrometheusText.parse(Files.readString(dir.resolve("prom-before-" + n + ".txt")));
            PrometheusText after = PrometheusText.parse(Files.readString(dir.resolve("prom-after-" + n + ".txt")));
            RunResult run = runs.get(i);
            TreeMap<Double, Double> buckets = HistogramQuantile.increase(before, after,
                    "loomgate_request_duration_seconds", "route", run.endpoint());
            Path log = dir.resolve("latencies-" + n + ".txt");
            double server = Double.NaN;
            if (Files.exists(log)) {
                double[] ms = Files.readAllLines(log).stream().filter(l -> !l.isBlank()).mapToDouble(Double::parseDouble)
                        .sorted().toArray();
                server = ms.length == 0 ? Double.NaN : ms[(int) Math.ceil(0.99 * ms.length) - 1];
            }
            rows.add(new Row(run, run.p99Ms(), HistogramQuantile.estimate(0.99, buckets) * 1000, server));
        }
        return new BucketReport(rows, machine);
    }

    String table() {
        StringBuilder sb = new StringBuilder("""
                | load | mode | conn | requests | wrk p99 ms | Prometheus p99 ms | vs wrk | within 5% of wrk | loomgate's own exact p99 ms | vs its own |
                |---|---|---|---|---|---|---|---|---|---|
                """);
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| `%s` | %s | %d | %,d | %.1f | %.1f | %.1f%% | %s | %.1f | %.1f%% |%n",
                    r.run().endpoint(), r.run().mode(), r.run().connections(), r.run().requests(), r.wrkP99Ms(),
                    r.prometheusP99Ms(), 100 * r.error(), r.error() <= TARGET ? "yes" : "**no**", r.serverP99Ms(),
                    100 * r.serverError()));
        }
        return sb.toString();
    }

    String markdown() {
        return "# loomgate: Prometheus's p99 against wrk's\n\n"
                + "Machine: " + machine.getOrDefault("cores", "?") + " cores, " + machine.getOrDefault("memory", "?")
                + ", " + machine.getOrDefault("jdk", "?") + ", " + machine.getOrDefault("date", "?") + "; "
                + machine.getOrDefault("seconds", "?") + " s per load, `" + machine.getOrDefault("command", "") + "`\n\n"
                + "The estimate is `histogram_quantile(0.99, increase(loomgate_request_duration_seconds_bucket[run]))`"
                + " computed as Prometheus does, from scrapes taken just before and after each wrk run."
                + " loomgate's own exact p99 is over its access log's timings of the same run (first byte read to"
                + " response written), which start later than wrk's clock: time a request waits before the JDK"
                + " server's dispatcher reads it is in wrk's figure only.\n\n"
                + table();
    }
}
