package io.loomgate.load;

import java.util.Map;
import java.util.Objects;

/**
 * One wrk run as {@code scripts/load} records it: what was loaded, and what the Lua reporter said.
 *
 * @param endpoint    the path and query loaded, e.g. {@code /block} or {@code /block?ms=300}
 * @param mode        {@code virtual}, {@code platform} or {@code bare}
 * @param connections wrk's {@code -c}
 * @param requests    responses wrk counted, errors included
 * @param seconds     how long the run lasted
 * @param errors      wrk's error counts: connect, read, write, status (non-2xx/3xx), timeout
 * @param latencyUs   wrk's latency: mean, p50, p90, p99, p999, max (microseconds)
 * @param peakRssKb   the server's largest resident set seen during the run, or 0 if unknown
 */
public record RunResult(String endpoint, String mode, int connections, long requests, double seconds,
                        Map<String, Long> errors, Map<String, Double> latencyUs, long peakRssKb) {

    public RunResult {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(mode, "mode");
        errors = Map.copyOf(errors);
        latencyUs = Map.copyOf(latencyUs);
    }

    /** Reads one run file: {@code {"endpoint":..,"mode":..,"connections":..,"peakRssKb":..,"wrk":{...}}}. */
    @SuppressWarnings("unchecked")
    static RunResult fromJson(Map<String, Object> json) {
        Map<String, Object> wrk = (Map<String, Object>) json.get("wrk");
        Map<String, Long> errors = new java.util.LinkedHashMap<>();
        ((Map<String, Object>) wrk.get("errors")).forEach((k, v) -> errors.put(k, ((Number) v).longValue()));
        Map<String, Double> latency = new java.util.LinkedHashMap<>();
        ((Map<String, Object>) wrk.get("latencyUs")).forEach((k, v) -> latency.put(k, ((Number) v).doubleValue()));
        Object rss = json.get("peakRssKb");
        return new RunResult((String) json.get("endpoint"), (String) json.get("mode"),
                ((Number) json.get("connections")).intValue(), ((Number) wrk.get("requests")).longValue(),
                ((Number) wrk.get("durationUs")).doubleValue() / 1e6, errors, latency,
                rss == null ? 0 : ((Number) rss).longValue());
    }

    /** Every error wrk counted. */
    public long totalErrors() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Successful (2xx/3xx) responses per second: what efficiency and share are made of. */
    public double okRps() {
        long bad = errors.getOrDefault("status", 0L);
        return seconds <= 0 ? 0 : (requests - bad) / seconds;
    }

    public double p50Ms() {
        return latencyUs.getOrDefault("p50", 0.0) / 1000;
    }

    public double p99Ms() {
        return latencyUs.getOrDefault("p99", 0.0) / 1000;
    }
}
