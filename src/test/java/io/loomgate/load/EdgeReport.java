package io.loomgate.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The edge scenarios of {@code scripts/load}: {@code --scenario tls} (the same loomgate over plain
 * HTTP and over HTTPS, each endpoint side by side, and what TLS costs as a ratio) and
 * {@code --scenario ratelimit} (what passes a route limited to 100 a second under c=200).
 */
public final class EdgeReport {

    private final String scenario;
    private final List<RunResult> runs;
    private final Map<String, Object> machine;

    private EdgeReport(String scenario, List<RunResult> runs, Map<String, Object> machine) {
        this.scenario = scenario;
        this.runs = List.copyOf(runs);
        this.machine = Map.copyOf(machine);
    }

    public static EdgeReport tls(List<RunResult> runs, Map<String, Object> machine) {
        return new EdgeReport("tls", runs, machine);
    }

    public static EdgeReport rateLimit(List<RunResult> runs, Map<String, Object> machine) {
        return new EdgeReport("ratelimit", runs, machine);
    }

    public String table() {
        StringBuilder sb = new StringBuilder("| endpoint | transport | c | answers/s (2xx) | p50 ms | p99 ms | errors |\n"
                + "|---|---|---|---|---|---|---|\n");
        for (RunResult r : runs) {
            sb.append(String.format(Locale.ROOT, "| `%s` | %s | %d | %.0f | %.1f | %.1f | %s |%n", r.endpoint(),
                    scenario.equals("tls") ? (r.mode().equals("tls") ? "HTTPS" : "plain HTTP") : "limited to 100/s",
                    r.connections(), r.okRps(), r.p50Ms(), r.p99Ms(), LoadReport.errors(r)));
        }
        return sb.toString();
    }

    public List<LoadReport.Target> targets() {
        List<LoadReport.Target> targets = new ArrayList<>();
        if (scenario.equals("tls")) {
            for (String endpoint : List.of("/block", "/api/data")) {
                Optional<RunResult> plain = run(endpoint, "plain");
                Optional<RunResult> tls = run(endpoint, "tls");
                String measured = plain.isPresent() && tls.isPresent()
                        ? String.format(Locale.ROOT, "%.0f/s over HTTPS, %.0f/s plain: %.2f of plain; p99 %.1f ms against %.1f ms",
                                tls.get().okRps(), plain.get().okRps(), tls.get().okRps() / Math.max(plain.get().okRps(), 0.001),
                                tls.get().p99Ms(), plain.get().p99Ms())
                        : "not measured in this run";
                targets.add(new LoadReport.Target("what TLS costs " + endpoint + " at c=1000", measured, Optional.empty()));
            }
        } else {
            Optional<RunResult> r = runs.stream().findFirst();
            double limit = ((Number) machine.getOrDefault("limitPerSecond", 100)).doubleValue();
            targets.add(r.map(run -> new LoadReport.Target("what passes stays within 5% of the 100/s limit",
                    String.format(Locale.ROOT, "%.1f/s passed (%.3f of the limit), %,d refused with 429", run.okRps(),
                            run.okRps() / limit, run.errors().getOrDefault("status", 0L)),
                    Optional.of(Math.abs(run.okRps() / limit - 1) <= 0.05)))
                    .orElseGet(() -> new LoadReport.Target("what passes stays within 5% of the limit", "not measured", Optional.empty())));
        }
        return targets;
    }

    private Optional<RunResult> run(String endpoint, String mode) {
        return runs.stream().filter(r -> r.endpoint().equals(endpoint) && r.mode().equals(mode)).findFirst();
    }

    public String markdown() {
        return "# loomgate " + scenario + " scenario\n\nMachine: " + machine.getOrDefault("cores", "?") + " cores, "
                + machine.getOrDefault("memory", "?") + ", " + machine.getOrDefault("jdk", "?") + "; "
                + machine.getOrDefault("date", "") + "; wrk on the same machine, " + machine.getOrDefault("seconds", "?")
                + " s per run. Command: `" + machine.getOrDefault("command", "scripts/load --scenario " + scenario) + "`\n\n"
                + table() + "\n## Targets\n\n" + LoadReport.targetsList(targets());
    }
}
