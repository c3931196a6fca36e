package io.loomgate.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The tail scenario of {@code scripts/load --scenario tail}: the same load through four routes to a
 * backend whose slowest 1 call in 100 takes 1 s, with each route's latency percentiles and the extra
 * upstream requests it cost, and the targets as ratios within the run.
 */
public final class TailReport {

    /** One route's run: wrk's latencies, and the requests the backend received for those answered. */
    public record Row(RunResult run, long answered, long upstreamRequests) {

        /** Upstream requests beyond one per answered request, as a percentage of those answered. */
        public double extraPercent() {
            return answered == 0 ? 0 : 100.0 * (upstreamRequests - answered) / answered;
        }

        double p999Ms() {
            return run.latencyUs().getOrDefault("p999", 0.0) / 1000;
        }
    }

    static final List<String> ROUTES = List.of("/tail/none", "/tail/fixed", "/tail/adaptive", "/tail/twice");
    private static final Map<String, String> NAMES = Map.of("/tail/none", "no hedge", "/tail/fixed", "hedge after 20 ms",
            "/tail/adaptive", "adaptive hedge (p95)", "/tail/twice", "two copies at once");

    private final List<Row> rows;
    private final Map<String, Object> machine;

    private TailReport(List<Row> rows, Map<String, Object> machine) {
        this.rows = List.copyOf(rows);
        this.machine = Map.copyOf(machine);
    }

    /** @param upstream by route: {@code gatewayRequests} and {@code upstreamRequests} */
    public static TailReport of(List<RunResult> runs, Map<String, Map<String, Object>> upstream, Map<String, Object> machine) {
        List<Row> rows = new ArrayList<>();
        for (RunResult r : runs) {
            Map<String, Object> u = upstream.getOrDefault(r.endpoint(), Map.of());
            rows.add(new Row(r, ((Number) u.getOrDefault("gatewayRequests", 0)).longValue(),
                    ((Number) u.getOrDefault("upstreamRequests", 0)).longValue()));
        }
        return new TailReport(rows, machine);
    }

    public List<Row> rows() {
        return rows;
    }

    public String table() {
        StringBuilder sb = new StringBuilder("| route | policy | rps | p50 ms | p99 ms | p99.9 ms | extra upstream requests | errors |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            RunResult r = row.run();
            sb.append(String.format(Locale.ROOT, "| `%s` | %s | %.0f | %.1f | %.1f | %.1f | %.1f%% (%,d for %,d) | %s |%n",
                    r.endpoint(), NAMES.getOrDefault(r.endpoint(), "?"), r.okRps(), r.p50Ms(), r.p99Ms(), row.p999Ms(),
                    row.extraPercent(), row.upstreamRequests(), row.answered(), LoadReport.errors(r)));
        }
        return sb.toString();
    }

    public List<LoadReport.Target> targets() {
        Optional<Row> none = row("/tail/none");
        Optional<Row> adaptive = row("/tail/adaptive");
        Optional<Row> twice = row("/tail/twice");
        List<LoadReport.Target> targets = new ArrayList<>();
        targets.add(target(none, adaptive, "the adaptive hedge cuts p99 at least 10x against no hedge",
                (n, a) -> n.run().p99Ms() / Math.max(a.run().p99Ms(), 0.001) >= 10,
                (n, a) -> String.format(Locale.ROOT, "p99 %.1f ms -> %.1f ms (%.1fx)", n.run().p99Ms(), a.run().p99Ms(),
                        n.run().p99Ms() / Math.max(a.run().p99Ms(), 0.001))));
        targets.add(target(adaptive, adaptive, "the adaptive hedge sends at most 5% extra upstream requests",
                (a, b) -> a.extraPercent() <= 5, (a, b) -> String.format(Locale.ROOT, "%.2f%%", a.extraPercent())));
        targets.add(target(adaptive, twice, "the adaptive hedge's p99 is within 1.5x of two copies at once",
                (a, t) -> a.run().p99Ms() <= 1.5 * t.run().p99Ms(),
                (a, t) -> String.format(Locale.ROOT, "%.1f ms vs %.1f ms (%.2fx)", a.run().p99Ms(), t.run().p99Ms(),
                        a.run().p99Ms() / Math.max(t.run().p99Ms(), 0.001))));
        targets.add(target(adaptive, twice, "at one-twentieth of two copies' extra load or less",
                (a, t) -> a.extraPercent() <= t.extraPercent() / 20,
                (a, t) -> String.format(Locale.ROOT, "%.2f%% vs %.1f%%", a.extraPercent(), t.extraPercent())));
        return targets;
    }

    private Optional<Row> row(String route) {
        return rows.stream().filter(r -> r.run().endpoint().equals(route)).findFirst();
    }

    private static LoadReport.Target target(Optional<Row> a, Optional<Row> b, String what,
                                            java.util.function.BiPredicate<Row, Row> met,
                                            java.util.function.BiFunction<Row, Row, String> measured) {
        if (a.isEmpty() || b.isEmpty()) {
            return new LoadReport.Target(what, "not measured in this run", Optional.empty());
        }
        return new LoadReport.Target(what, measured.apply(a.get(), b.get()), Optional.of(met.test(a.get(), b.get())));
    }

    public String markdown() {
        StringBuilder sb = new StringBuilder("# loomgate tail scenario\n\n");
        sb.append("Machine: ").append(machine.getOrDefault("cores", "?")).append(" cores, ")
                .append(machine.getOrDefault("memory", "?")).append(", ").append(machine.getOrDefault("jdk", "?"))
                .append("; ").append(machine.getOrDefault("date", "")).append(". Backend `--latency ")
                .append(machine.getOrDefault("backendLatency", "?")).append("`, wrk c=")
                .append(machine.getOrDefault("tailConnections", "?")).append(", ")
                .append(machine.getOrDefault("seconds", "?")).append(" s per route. Command: `")
                .append(machine.getOrDefault("command", "scripts/load --scenario tail")).append("`\n\n")
                .append(table()).append('\n').append("![the four routes](report.svg)\n\n## Targets\n\n");
        return sb.append(LoadReport.targetsList(targets())).toString();
    }

    /** The four routes side by side: p50, p99 and p99.9 on one log scale, with the extra load beside. */
    public String svg() {
        return TailChart.svg(rows, NAMES, "The tail at scale: " + machine.getOrDefault("backendLatency", "")
                + ", c=" + machine.getOrDefault("tailConnections", "?") + ", " + machine.getOrDefault("cores", "?")
                + " cores, " + machine.getOrDefault("date", ""), machine.getOrDefault("jdk", "") + "; "
                + machine.getOrDefault("seconds", "?") + " s per route; " + machine.getOrDefault("command", ""));
    }
}
