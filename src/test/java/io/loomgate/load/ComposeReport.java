package io.loomgate.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The compose scenario of {@code scripts/load --scenario compose}: one call graph over the backend's
 * JSON API, whose critical path is 120 ms (160 ms level by level, 220 ms as a chain), served each
 * of those ways at c=1, on its critical path at c=500 and c=1000, and the HTTP {@code /aggregate}
 * beside it for the CPU a request costs. The targets are against the designed 120 ms.
 */
public final class ComposeReport {

    /** The designed critical path of the graph, in milliseconds. */
    static final double CRITICAL_PATH_MS = 120;

    /** One run, with the CPU time the gateway and the backend spent during it. */
    public record Row(RunResult run, long gatewayCpuMs, long backendCpuMs) {

        /**
         * The gateway's CPU time per answered (2xx) request, in microseconds; NaN for a run of fewer
         * than 1,000 answers, where the process's own background work and the clock's 10 ms ticks
         * would be most of it.
         */
        public double gatewayCpuUsPerRequest() {
            double answered = run.okRps() * run.seconds();
            return answered < 1000 ? Double.NaN : gatewayCpuMs * 1000.0 / answered;
        }

        /** Successful answers per second as a share of Little's law's bound, c / designed latency. */
        double littleShare(double designedMs) {
            return run.okRps() / (run.connections() / (designedMs / 1000));
        }
    }

    private static final Map<String, String> SCHEDULES = Map.of("/critical-path/7", "critical path (120 ms)",
            "/by-level/7", "level by level (160 ms)", "/chain/7", "chain (220 ms)", "/aggregate", "HTTP /aggregate (db 300 ms, file)");
    private static final Map<String, Double> DESIGNED_MS = Map.of("/critical-path/7", 120.0, "/by-level/7", 160.0,
            "/chain/7", 220.0, "/aggregate", 300.0);

    private final List<Row> rows;
    private final Map<String, Object> machine;

    ComposeReport(List<Row> rows, Map<String, Object> machine) {
        this.rows = List.copyOf(rows);
        this.machine = Map.copyOf(machine);
    }

    /** @param cpu by run number (1, 2, ...): {@code gatewayCpuMs} and {@code backendCpuMs} */
    public static ComposeReport of(List<RunResult> runs, List<Map<String, Object>> cpu, Map<String, Object> machine) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            Map<String, Object> c = i < cpu.size() ? cpu.get(i) : Map.of();
            rows.add(new Row(runs.get(i), ((Number) c.getOrDefault("gatewayCpuMs", 0)).longValue(),
                    ((Number) c.getOrDefault("backendCpuMs", 0)).longValue()));
        }
        return new ComposeReport(rows, machine);
    }

    public String table() {
        StringBuilder sb = new StringBuilder("| route | schedule | c | answers/s (2xx) | of Little's bound | p50 ms | p99 ms"
                + " | gateway CPU per request | backend CPU | errors |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            RunResult r = row.run();
            double designed = DESIGNED_MS.getOrDefault(r.endpoint(), CRITICAL_PATH_MS);
            double cpu = row.gatewayCpuUsPerRequest();
            sb.append(String.format(Locale.ROOT, "| `%s` | %s | %d | %.0f | %.2f | %.1f | %.1f | %s | %,d ms | %s |%n",
                    r.endpoint(), SCHEDULES.getOrDefault(r.endpoint(), "?"), r.connections(), r.okRps(),
                    row.littleShare(designed), r.p50Ms(), r.p99Ms(), Double.isNaN(cpu) ? "too few to say" : String.format(
                            Locale.ROOT, "%.0f µs", cpu), row.backendCpuMs(), LoadReport.errors(r)));
        }
        return sb.toString();
    }

    public List<LoadReport.Target> targets() {
        List<LoadReport.Target> targets = new ArrayList<>();
        targets.add(target(row("/critical-path/7", 1), "c=1: p50 within 10 ms of the 120 ms critical path",
                r -> Math.abs(r.run().p50Ms() - CRITICAL_PATH_MS) <= 10,
                r -> String.format(Locale.ROOT, "p50 %.1f ms", r.run().p50Ms())));
        targets.add(target(row("/critical-path/7", 500), "c=500: p50 within 15% of 120 ms (at most 138 ms)",
                r -> r.run().p50Ms() <= CRITICAL_PATH_MS * 1.15,
                r -> String.format(Locale.ROOT, "p50 %.1f ms", r.run().p50Ms())));
        targets.add(target(row("/critical-path/7", 1000), "c=1000: at least 0.9 of Little's bound (1000 / 120 ms = 8,333/s), 0 errors",
                r -> r.littleShare(CRITICAL_PATH_MS) >= 0.9 && r.run().totalErrors() == 0,
                r -> String.format(Locale.ROOT, "%.0f/s, %.2f of the bound, errors %s", r.run().okRps(),
                        r.littleShare(CRITICAL_PATH_MS), LoadReport.errors(r.run()))));
        Optional<Row> composed = row("/critical-path/7", 500);
        Optional<Row> aggregate = row("/aggregate", 500);
        String cost = composed.isPresent() && aggregate.isPresent()
                ? String.format(Locale.ROOT, "%.0f µs per composed request (3 upstream calls) against %.0f µs per HTTP /aggregate (2),"
                        + " %.0f and %.0f µs per upstream call", composed.get().gatewayCpuUsPerRequest(),
                        aggregate.get().gatewayCpuUsPerRequest(), composed.get().gatewayCpuUsPerRequest() / 3,
                        aggregate.get().gatewayCpuUsPerRequest() / 2)
                : "not measured in this run";
        targets.add(new LoadReport.Target("the gateway's CPU per composed request next to the HTTP /aggregate, at c=500", cost,
                Optional.empty()));
        return targets;
    }

    private Optional<Row> row(String endpoint, int connections) {
        return rows.stream().filter(r -> r.run().endpoint().equals(endpoint) && r.run().connections() == connections).findFirst();
    }

    private static LoadReport.Target target(Optional<Row> row, String what, java.util.function.Predicate<Row> met,
                                            java.util.function.Function<Row, String> measured) {
        return row.map(r -> new LoadReport.Target(what, measured.apply(r), Optional.of(met.test(r))))
                .orElseGet(() -> new LoadReport.Target(what, "not measured in this run", Optional.empty()));
    }

    public String markdown() {
        return "# loomgate compose scenario\n\nMachine: " + machine.getOrDefault("cores", "?") + " cores, "
                + machine.getOrDefault("memory", "?") + ", " + machine.getOrDefault("jdk", "?") + "; "
                + machine.getOrDefault("date", "") + ". The gateway and the bundled backend on the same machine, with wrk; "
                + machine.getOrDefault("seconds", "?") + " s per run. Command: `"
                + machine.getOrDefault("command", "scripts/load --scenario compose") + "`\n\n"
                + "The graph: user (60 ms), then team (60 ms), beside orders (100 ms), each an HTTP call to the backend.\n\n"
                + table() + "\n## Targets\n\n" + LoadReport.targetsList(targets());
    }
}
