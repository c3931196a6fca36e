package io.loomgate.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The report of {@code scripts/load --scenario cache}: the same composed route without and with a
 * cache on its upstreams, with the gateway's CPU per request and the backend's requests per client
 * request, and the targets: upstream calls per request down by 5x or more, and rps up by 2x or more
 * at a p99 no worse.
 */
final class CacheReport {

    private final List<RunResult> runs;
    private final Map<String, Map<String, Object>> cpu;
    private final Map<String, Object> machine;

    CacheReport(List<RunResult> runs, Map<String, Map<String, Object>> cpu, Map<String, Object> machine) {
        this.runs = List.copyOf(runs);
        this.cpu = Map.copyOf(cpu);
        this.machine = Map.copyOf(machine);
    }

    private Optional<RunResult> run(String mode) {
        return runs.stream().filter(r -> r.mode().equals(mode)).findFirst();
    }

    /** The backend's requests per client request in {@code mode}'s run. */
    double upstreamPerRequest(String mode) {
        RunResult r = run(mode).orElseThrow();
        return ((Number) cpu.get(mode).get("backendRequests")).doubleValue() / Math.max(1, r.requests());
    }

    /** The gateway's CPU per request in {@code mode}'s run, in µs. */
    double cpuPerRequestUs(String mode) {
        RunResult r = run(mode).orElseThrow();
        return ((Number) cpu.get(mode).get("gatewayCpuMs")).doubleValue() * 1000 / Math.max(1, r.requests());
    }

    String table() {
        StringBuilder sb = new StringBuilder("| run | c | 2xx/s | p50 (ms) | p99 (ms) | gateway CPU per request (µs) "
                + "| backend requests per request | errors |\n|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (RunResult r : runs) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.1f | %.1f | %.0f | %.2f | %s |%n", r.mode(), r.connections(),
                    r.okRps(), r.p50Ms(), r.p99Ms(), cpuPerRequestUs(r.mode()), upstreamPerRequest(r.mode()), LoadReport.errors(r)));
        }
        return sb.toString();
    }

    List<LoadReport.Target> targets() {
        List<LoadReport.Target> t = new ArrayList<>();
        if (run("plain").isEmpty() || run("cached").isEmpty()) {
            t.add(new LoadReport.Target("the cache scenario", "a run is missing", Optional.empty()));
            return t;
        }
        RunResult plain = run("plain").get();
        RunResult cached = run("cached").get();
        double fewer = upstreamPerRequest("plain") / Math.max(upstreamPerRequest("cached"), 1e-9);
        t.add(new LoadReport.Target("upstream calls per request down by 5x or more",
                String.format(Locale.ROOT, "%.2f without the cache, %.3f with it: %.0fx fewer", upstreamPerRequest("plain"),
                        upstreamPerRequest("cached"), fewer), Optional.of(fewer >= 5)));
        double more = cached.okRps() / Math.max(plain.okRps(), 1e-9);
        t.add(new LoadReport.Target("rps up by 2x or more at a p99 no worse",
                String.format(Locale.ROOT, "%.0f/s against %.0f/s: %.2fx; p99 %.1f ms against %.1f ms", cached.okRps(), plain.okRps(),
                        more, cached.p99Ms(), plain.p99Ms()), Optional.of(more >= 2 && cached.p99Ms() <= plain.p99Ms())));
        return t;
    }

    String markdown() {
        StringBuilder sb = new StringBuilder("# The cache scenario\n\n");
        sb.append(String.format(Locale.ROOT, "examples/compose.json's `/users/{id}/overview` for users 7, 8 and 9 in turn, without and with "
                + "`\"cache\": {\"defaultTtl\": \"30s\"}` on its three upstreams. Machine: %s cores, %s, %s; %s.%n%n",
                machine.getOrDefault("cores", "?"), machine.getOrDefault("memory", "?"), machine.getOrDefault("jdk", "?"),
                machine.getOrDefault("date", "?")));
        sb.append(table()).append('\n');
        for (LoadReport.Target x : targets()) {
            sb.append("- ").append(x.met().map(m -> m ? "met: " : "MISSED: ").orElse("not checked: ")).append(x.what()).append(": ")
                    .append(x.measured()).append('\n');
        }
        return sb.toString();
    }
}
