package io.loomgate.load;

import io.loomgate.testing.HistogramQuantile;
import io.loomgate.testing.PrometheusText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The report of {@code scripts/load --scenario shared-limit}: three loomgates behind HAProxy, one
 * route limited to 1,000 a second for the fleet on Redis and one limited to as much per instance;
 * what passes each, and, from each instance's metrics over the shared run, its Redis command
 * latency and the requests that fell back. Target: what passes the shared route within 10% of the
 * limit.
 */
final class SharedLimitReport {

    /** One instance's metrics before and after the shared run. */
    record Instance(PrometheusText before, PrometheusText after) {

        double increase(String name, Map<String, String> labels) {
            return after.value(name, labels) - before.value(name, labels);
        }

        /** The q quantile of the Redis commands in the run, in ms. */
        double redisMs(double q) {
            String metric = "loomgate_redis_command_duration_seconds";
            TreeMap<Double, Double> buckets = new TreeMap<>();
            for (PrometheusText.Sample s : after.samples()) {
                if (s.name().equals(metric + "_bucket")) {
                    String le = s.labels().get("le");
                    buckets.put(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le),
                            s.value() - before.value(s.name(), s.labels()));
                }
            }
            return HistogramQuantile.estimate(q, buckets) * 1000;
        }
    }

    private static final Map<String, String> SHARED = Map.of("limit", "rate_limit", "route", "/shared");

    private final List<RunResult> runs;
    private final List<Instance> instances;
    private final Map<String, Object> machine;

    SharedLimitReport(List<RunResult> runs, List<Instance> instances, Map<String, Object> machine) {
        this.runs = List.copyOf(runs);
        this.instances = List.copyOf(instances);
        this.machine = Map.copyOf(machine);
    }

    private Optional<RunResult> run(String endpoint) {
        return runs.stream().filter(r -> r.endpoint().equals(endpoint)).findFirst();
    }

    private double limit() {
        return ((Number) machine.getOrDefault("limitPerSecond", 1000)).doubleValue();
    }

    String table() {
        StringBuilder sb = new StringBuilder("| route | limit | c | passed/s (2xx) | of the fleet's limit | answers/s | p50 ms | p99 ms |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (RunResult r : runs) {
            boolean shared = r.endpoint().equals("/shared");
            sb.append(String.format(Locale.ROOT, "| `%s` | %s | %d | %.0f | %.2f | %.0f | %.1f | %.1f |%n", r.endpoint(),
                    shared ? "1,000/s for the fleet (Redis)" : "1,000/s per instance", r.connections(), r.okRps(),
                    r.okRps() / limit(), r.requests() / r.seconds(), r.p50Ms(), r.p99Ms()));
        }
        sb.append("\n| instance | Redis commands | p50 ms | p99 ms | fell back | timeouts |\n|---|---|---|---|---|---|\n");
        for (int i = 0; i < instances.size(); i++) {
            Instance n = instances.get(i);
            sb.append(String.format(Locale.ROOT, "| %d | %,.0f | %.2f | %.2f | %,.0f | %,.0f |%n", i + 1,
                    n.increase("loomgate_redis_commands_total", Map.of("result", "ok")), n.redisMs(0.5), n.redisMs(0.99),
                    n.increase("loomgate_limit_store_fallbacks_total", SHARED),
                    n.increase("loomgate_redis_commands_total", Map.of("result", "timeout"))));
        }
        return sb.toString();
    }

    List<LoadReport.Target> targets() {
        List<LoadReport.Target> targets = new ArrayList<>();
        Optional<RunResult> shared = run("/shared");
        double fellBack = instances.stream().mapToDouble(n -> n.increase("loomgate_limit_store_fallbacks_total", SHARED)).sum();
        targets.add(shared.map(r -> new LoadReport.Target("what passes the shared route stays within 10% of the fleet's 1,000/s",
                String.format(Locale.ROOT, "%.1f/s passed (%.3f of the limit) through three instances; %,.0f requests fell back",
                        r.okRps(), r.okRps() / limit(), fellBack),
                Optional.of(Math.abs(r.okRps() / limit() - 1) <= 0.10)))
                .orElseGet(() -> new LoadReport.Target("what passes the shared route", "not measured", Optional.empty())));
        Optional<RunResult> local = run("/local");
        if (shared.isPresent() && local.isPresent()) {
            double p99 = instances.stream().mapToDouble(n -> n.redisMs(0.99)).max().orElse(Double.NaN);
            targets.add(new LoadReport.Target("the added p99 of the Redis round trip",
                    String.format(Locale.ROOT, "Redis commands p99 %.2f ms (the slowest instance); the shared route's p99 %.1f ms"
                            + " against %.1f ms for the per-instance limit", p99, shared.get().p99Ms(), local.get().p99Ms()),
                    Optional.empty()));
        }
        return targets;
    }

    String markdown() {
        return "# loomgate shared-limit scenario\n\nMachine: " + machine.getOrDefault("cores", "?") + " cores, "
                + machine.getOrDefault("memory", "?") + ", " + machine.getOrDefault("jdk", "?") + "; "
                + machine.getOrDefault("date", "") + "; redis-server " + machine.getOrDefault("redis", "?") + ", HAProxy "
                + machine.getOrDefault("haproxy", "?") + " round-robin over three loomgates (--redis-timeout "
                + machine.getOrDefault("redisTimeout", "?") + "), wrk on the same machine, " + machine.getOrDefault("seconds", "?")
                + " s per run. Command: `" + machine.getOrDefault("command", "scripts/load --scenario shared-limit") + "`\n\n"
                + table() + "\n## Targets\n\n" + LoadReport.targetsList(targets());
    }
}
