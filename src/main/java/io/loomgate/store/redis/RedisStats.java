package io.loomgate.store.redis;

import io.loomgate.json.JsonWriter;
import io.loomgate.observe.MetricSet;
import io.loomgate.observe.MetricSink;
import io.loomgate.observe.histogram.HistogramSnapshot;
import java.util.Map;

/**
 * The Redis client's state, as {@code /metrics} ({@code loomgate_redis_*}, {@code redis} in the JSON
 * form) and {@code GET /admin/store} show it.
 *
 * @param state    its breaker's state: {@code closed} while Redis answers
 * @param failures commands that failed, by how
 */
public record RedisStats(String url, String state, long ok, Map<String, Long> failures, long scriptLoads, int connections,
                         long opened, HistogramSnapshot latency) implements MetricSet {

    /** As {@code /metrics?format=json} and {@code GET /admin/store} show it. */
    public void json(JsonWriter w) {
        w.beginObject().field("url", url).field("state", state).field("ok", ok);
        w.name("failures").beginObject();
        failures.forEach(w::field);
        w.endObject();
        w.field("scriptLoads", scriptLoads).field("connections", connections).field("breakerOpened", opened)
                .field("p50Ms", latency.percentileNanos(0.5) / 1e6).field("p99Ms", latency.percentileNanos(0.99) / 1e6).endObject();
    }

    @Override
    public void topJson(JsonWriter w) {
        json(w.name("redis"));
    }

    @Override
    public void prometheus(MetricSink w) {
        w.family("loomgate_redis_up", "gauge", "1 while Redis answers (its breaker closed), else 0.");
        w.sample("loomgate_redis_up", state.equals("closed") ? 1 : 0);
        w.family("loomgate_redis_commands_total", "counter", "Redis commands, by how they ended: ok, timeout, unavailable, malformed,"
                + " error (Redis answered one), open (not sent: the breaker is open).");
        w.sample("loomgate_redis_commands_total", ok, "result", "ok");
        failures.forEach((kind, n) -> w.sample("loomgate_redis_commands_total", n, "result", kind));
        w.family("loomgate_redis_command_duration_seconds", "histogram", "How long each Redis command that got its answer took,"
                + " waiting for a connection included.");
        w.histogram("loomgate_redis_command_duration_seconds", latency);
        w.family("loomgate_redis_connections", "gauge", "Connections to Redis open now (or being opened).");
        w.sample("loomgate_redis_connections", connections);
        w.family("loomgate_redis_breaker_opened_total", "counter", "Times the Redis breaker opened.");
        w.sample("loomgate_redis_breaker_opened_total", opened);
        w.family("loomgate_redis_script_loads_total", "counter", "Scripts sent whole because Redis answered NOSCRIPT (a restart, a SCRIPT FLUSH).");
        w.sample("loomgate_redis_script_loads_total", scriptLoads);
    }
}
