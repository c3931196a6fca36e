package io.loomgate.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The proxy scenario of {@code scripts/load --scenario proxy}: loomgate's proxy route in both thread
 * modes, nginx and the backend itself, all at c=2000 on the same 100 ms backend, plus the HTTP
 * {@code /aggregate} against its Little's-law bound, and the targets as ratios within the run.
 */
public final class ProxyReport {

    static final int PROXY_CONNECTIONS = 2000;
    static final int AGGREGATE_CONNECTIONS = 1000;
    /** {@code /aggregate} waits for its slowest part, the backend's 300 ms {@code db}. */
    static final double AGGREGATE_LATENCY_S = 0.3;

    private final List<RunResult> runs;
    private final Map<String, Object> machine;

    private ProxyReport(List<RunResult> runs, Map<String, Object> machine) {
        this.runs = List.copyOf(runs);
        this.machine = Map.copyOf(machine);
    }

    public static ProxyReport of(List<RunResult> runs, Map<String, Object> machine) {
        return new ProxyReport(runs, machine);
    }

    public String markdown() {
        StringBuilder sb = new StringBuilder("# loomgate proxy scenario\n\n");
        sb.append("Machine: ").append(machine.getOrDefault("cores", "?")).append(" cores, ")
                .append(machine.getOrDefault("memory", "?")).append(", ").append(machine.getOrDefault("jdk", "?"))
                .append(", ").append(machine.getOrDefault("nginx", "no nginx")).append("; ")
                .append(machine.getOrDefault("date", "")).append(". wrk ").append(machine.getOrDefault("seconds", "?"))
                .append(" s per run. Command: `").append(machine.getOrDefault("command", "scripts/load --scenario proxy"))
                .append("`\n\n").append(table()).append('\n');
        sb.append("## Targets\n\n");
        return sb.append(LoadReport.targetsList(targets())).toString();
    }

    public String table() {
        StringBuilder sb = new StringBuilder("| server | endpoint | connections | rps (2xx) | p50 ms | p99 ms | errors | peak RSS MB |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (RunResult r : runs) {
            sb.append(String.format(Locale.ROOT, "| %s | `%s` | %d | %.0f | %.1f | %.1f | %s | %d |%n", r.mode(), r.endpoint(),
                    r.connections(), r.okRps(), r.p50Ms(), r.p99Ms(), LoadReport.errors(r), r.peakRssKb() / 1024));
        }
        return sb.toString();
    }

    public List<LoadReport.Target> targets() {
        List<LoadReport.Target> targets = new ArrayList<>();
        Optional<RunResult> proxy = find("proxy-virtual", PROXY_CONNECTIONS);
        Optional<RunResult> nginx = find("nginx", PROXY_CONNECTIONS);
        Optional<RunResult> platform = find("proxy-platform", PROXY_CONNECTIONS);
        targets.add(pair(proxy, nginx, "loomgate proxy (virtual) c=2000: >= 0.8x nginx's throughput, 0 socket errors",
                (p, n) -> {
                    double ratio = p.okRps() / n.okRps();
                    long socket = p.totalErrors() - p.errors().getOrDefault("status", 0L);
                    return new LoadReport.Target("", String.format(Locale.ROOT, "%.2fx (%.0f vs %.0f rps), %d socket errors",
                            ratio, p.okRps(), n.okRps(), socket), Optional.of(ratio >= 0.8 && socket == 0));
                }));
        targets.add(pair(proxy, platform, "loomgate proxy c=2000: virtual >= 9x the platform pool (200)", (p, q) -> {
            double ratio = p.okRps() / q.okRps();
            return new LoadReport.Target("", String.format(Locale.ROOT, "%.2fx (%.0f vs %.0f rps; the pool's bound is 2000 rps)",
                    ratio, p.okRps(), q.okRps()), Optional.of(ratio >= 9));
        }));
        targets.add(pair(proxy, nginx, "loomgate proxy c=2000: p99 <= 1.5x nginx's p99", (p, n) -> {
            double ratio = p.p99Ms() / n.p99Ms();
            return new LoadReport.Target("", String.format(Locale.ROOT, "%.2fx (%.1f vs %.1f ms)", ratio, p.p99Ms(), n.p99Ms()),
                    Optional.of(ratio <= 1.5));
        }));
        double bound = AGGREGATE_CONNECTIONS / AGGREGATE_LATENCY_S;
        String what = "HTTP `/aggregate` c=1000: >= 0.9 of its bound (" + Math.round(bound) + " rps)";
        targets.add(find("http-aggregate", AGGREGATE_CONNECTIONS).map(a -> new LoadReport.Target(what,
                String.format(Locale.ROOT, "%.2f (%.0f rps), %s", a.okRps() / bound, a.okRps(), LoadReport.errors(a)),
                Optional.of(a.okRps() / bound >= 0.9))).orElse(new LoadReport.Target(what, "not run", Optional.empty())));
        return targets;
    }

    private static LoadReport.Target pair(Optional<RunResult> a, Optional<RunResult> b, String what,
                                          java.util.function.BiFunction<RunResult, RunResult, LoadReport.Target> check) {
        if (a.isEmpty() || b.isEmpty()) {
            return new LoadReport.Target(what, "not run (" + (a.isEmpty() ? "loomgate" : "the reference") + " row missing)",
                    Optional.empty());
        }
        LoadReport.Target t = check.apply(a.get(), b.get());
        return new LoadReport.Target(what, t.measured(), t.met());
    }

    private Optional<RunResult> find(String mode, int connections) {
        return runs.stream().filter(r -> r.mode().equals(mode) && r.connections() == connections).findFirst();
    }
}
