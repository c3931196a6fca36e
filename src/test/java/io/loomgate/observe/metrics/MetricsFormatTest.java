package io.loomgate.observe.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.Status;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.observe.event.Answer;
import io.loomgate.observe.event.RequestSummary;
import io.loomgate.observe.histogram.Histogram;
import io.loomgate.testing.PrometheusText;
import io.loomgate.upstream.Faults;
import io.loomgate.upstream.Upstreams;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The formats on a fixed snapshot, without a server. */
class MetricsFormatTest {

    private static final String WEIRD = "/we\"ird\\path\nx";

    private static MetricsSnapshot snapshot() {
        UpstreamId db = UpstreamId.of("db");
        UpstreamId file = UpstreamId.of("file");
        GatewayMetrics m = new GatewayMetrics(List.of(db, file));
        m.registerRoutes(List.of("/block", WEIRD));
        m.requestStarted("/block");
        m.requestFinished(finished("/block", true, 200, "a", 300_000_000));
        m.requestFinished(finished("/block", false, 503, "b", 1_000_000));
        m.requestFinished(finished(WEIRD, false, 404, "c", 60_000));
        m.orphanEnded(db, Duration.ofMillis(250));
        m.answered(new Answer("a", "", "/block", "all", false, Status.FAILED, 502,
                List.of(new FinishedCall(db, Outcome.CANCELLED, Duration.ofMillis(50)),
                        new FinishedCall(file, new Outcome.Failed("x"), Duration.ofMillis(50))),
                false, Optional.of("failed: file"), Duration.ofMillis(50), Duration.ofSeconds(2), 0, 0, 0, List.of()));
        return new MetricsSnapshot("9.9.9", ThreadMode.PLATFORM, 1500, 3, 7, 50, m.routes(),
                m.services(id -> 0), JvmSnapshot.take(),
                new VirtualThreads.Snapshot(10, 2, 2, 0, 0, 1, "running", List.of()), new ServerGauges.Pool(8, 2, 5),
                List.of(new LimitStats("rate_limit", "/block", 3, 2, 9), new LimitStats("auth_failures", "*", 1, 0, 4),
                        new LimitStats("rate_limit", "/shared", 1, 0, 2, 5)),
                new GatewayMetrics.Reloads(3, 1), 7, List.of(
                        new io.loomgate.edge.listener.ConnectionMetrics(12, 6, 2, 3, 4, 5, 1, 16, 2),
                        new io.loomgate.observe.otlp.SpanMetrics(40, 2),
                        new io.loomgate.upstream.RetryMetrics(Map.of(db, new io.loomgate.upstream.RetryMetrics.Counts(4, 1))),
                        new io.loomgate.upstream.BreakerMetrics(
                                Map.of(db, new io.loomgate.upstream.Breaker.Snapshot(io.loomgate.upstream.Breaker.State.OPEN, 2, 1, 1))),
                        new io.loomgate.upstream.EndpointMetrics(Map.of(db, List.of(endpoint("10.0.0.5:80", 9), endpoint("10.0.0.6:80", 3)))),
                        new io.loomgate.upstream.cache.CacheMetrics(
                                Map.of(db, new io.loomgate.upstream.cache.CachedCalls.Stats(40, 10, 3, 2, 7, 1, 5_000, 12, 1 << 20, 0))),
                        new io.loomgate.store.redis.RedisStats("redis://127.0.0.1:6379/0", "open", 120,
                                Map.of("timeout", 3L, "open", 40L), 1, 2, 1, io.loomgate.observe.histogram.HistogramSnapshot.empty())));
    }

    @Test
    void prometheusParsesStrictlyWithEscapedLabelsAndExactCounts() {
        PrometheusText p = PrometheusText.parse(PrometheusFormat.render(snapshot()));
        assertEquals(1, p.value("loomgate_requests_total", Map.of("route", "/block", "status", "200")));
        assertEquals(1, p.value("loomgate_requests_total", Map.of("route", "/block", "status", "503")));
        assertEquals(4, p.value("loomgate_retries_total", Map.of("service", "db", "result", "sent")));
        assertEquals(1, p.value("loomgate_retries_total", Map.of("service", "db", "result", "refused_by_budget")));
        assertEquals(3, p.value("loomgate_config_reloads_total", Map.of("result", "ok")));
        assertEquals(1, p.value("loomgate_config_reloads_total", Map.of("result", "failed")));
        assertEquals(7, p.value("loomgate_access_log_dropped_total", Map.of()));
        assertEquals(40, p.value("loomgate_trace_spans_exported_total", Map.of()));
        assertEquals(2, p.value("loomgate_trace_spans_dropped_total", Map.of()));
        assertEquals(9, p.value("loomgate_endpoint_calls_total", Map.of("service", "db", "endpoint", "10.0.0.5:80")));
        assertEquals(1, p.value("loomgate_endpoint_ejected", Map.of("service", "db", "endpoint", "10.0.0.6:80")));
        assertEquals(40, p.value("loomgate_cache_hits_total", Map.of("service", "db")));
        assertEquals(7, p.value("loomgate_cache_coalesced_total", Map.of("service", "db")));
        assertEquals(5_000, p.value("loomgate_cache_bytes", Map.of("service", "db")));
        assertEquals(9, p.value("loomgate_endpoint_try_duration_seconds_count", Map.of("service", "db", "endpoint", "10.0.0.5:80")));
        assertEquals(9, p.value("loomgate_endpoint_try_duration_seconds_bucket",
                Map.of("service", "db", "endpoint", "10.0.0.5:80", "le", "0.025")), "20 ms tries fall under 25 ms");
        assertEquals(0, p.value("loomgate_endpoint_try_duration_seconds_bucket",
                Map.of("service", "db", "endpoint", "10.0.0.5:80", "le", "0.01")));
        assertEquals(1, p.value("loomgate_requests_total", Map.of("route", WEIRD, "status", "404")));
        assertEquals(0, p.value("loomgate_requests_in_flight", Map.of("route", "/block")));
        assertEquals(2, p.value("loomgate_request_duration_seconds_count", Map.of("route", "/block")));
        assertEquals(0.301, p.value("loomgate_request_duration_seconds_sum", Map.of("route", "/block")), 1e-9);
        assertEquals(1, p.value("loomgate_request_duration_seconds_bucket", Map.of("route", "/block", "le", "0.001")));
        assertEquals(1, p.value("loomgate_request_duration_seconds_bucket", Map.of("route", "/block", "le", "0.288")));
        assertEquals(2, p.value("loomgate_request_duration_seconds_bucket", Map.of("route", "/block", "le", "0.302")));
        assertEquals(1, p.value("loomgate_service_calls_total", Map.of("service", "db", "outcome", "cancelled")));
        assertEquals(1, p.value("loomgate_service_calls_total", Map.of("service", "file", "outcome", "failed")));
        assertEquals(0.25, p.value("loomgate_service_orphaned_work_seconds_total", Map.of("service", "db")), 1e-9);
        assertEquals(7, p.value("loomgate_requests_shed_total", Map.of()));
        assertEquals(12, p.value("loomgate_server_connections", Map.of()));
        assertEquals(6, p.value("loomgate_server_connections_refused_total", Map.of("reason", "max")));
        assertEquals(2, p.value("loomgate_server_connections_refused_total", Map.of("reason", "per_address")));
        assertEquals(3, p.value("loomgate_server_head_timeouts_total", Map.of()));
        assertEquals(4, p.value("loomgate_server_malformed_requests_total", Map.of()));
        assertEquals(5, p.value("loomgate_server_client_gone_total", Map.of()));
        assertEquals(5, p.value("loomgate_pool_queued_requests", Map.of()));
        assertEquals(1, p.value("loomgate_info", Map.of("version", "9.9.9", "threads", "platform")));
        assertEquals(1, p.value("loomgate_breaker_state", Map.of("service", "db", "state", "open")));
        assertEquals(0, p.value("loomgate_breaker_state", Map.of("service", "db", "state", "closed")));
        assertEquals(0, p.value("loomgate_breaker_state", Map.of("service", "db", "state", "half-open")));
        assertEquals(2, p.value("loomgate_breaker_transitions_total", Map.of("service", "db", "to", "open")));
        assertEquals(1, p.value("loomgate_breaker_transitions_total", Map.of("service", "db", "to", "half-open")));
        assertEquals(3, p.value("loomgate_limit_keys", Map.of("limit", "rate_limit", "route", "/block")));
        assertEquals(2, p.value("loomgate_limit_evictions_total", Map.of("limit", "rate_limit", "route", "/block")));
        assertEquals(9, p.value("loomgate_limit_refused_total", Map.of("limit", "rate_limit", "route", "/block")));
        assertEquals(4, p.value("loomgate_limit_refused_total", Map.of("limit", "auth_failures", "route", "*")));
        assertEquals(5, p.value("loomgate_limit_store_fallbacks_total", Map.of("limit", "rate_limit", "route", "/shared")));
        assertTrue(p.samples().stream().noneMatch(x -> x.name().equals("loomgate_limit_store_fallbacks_total")
                && x.labels().get("route").equals("/block")), "a local limit has none");
        assertEquals(0, p.value("loomgate_redis_up", Map.of()), "its breaker is open");
        assertEquals(120, p.value("loomgate_redis_commands_total", Map.of("result", "ok")));
        assertEquals(3, p.value("loomgate_redis_commands_total", Map.of("result", "timeout")));
        assertEquals(40, p.value("loomgate_redis_commands_total", Map.of("result", "open")));
        assertEquals(2, p.value("loomgate_redis_connections", Map.of()));
        assertEquals(1, p.value("loomgate_redis_script_loads_total", Map.of()));
        assertEquals(0, p.value("loomgate_redis_command_duration_seconds_count", Map.of()));
    }

    @Test
    void jsonParsesWithTheDocumentedShape() {
        Map<String, Object> j = io.loomgate.json.JsonParser.parseObject(JsonFormat.render(snapshot()));
        Map<?, ?> server = (Map<?, ?>) j.get("server");
        assertEquals("platform", server.get("threads"));
        assertEquals(8L, server.get("pool"));
        assertEquals(3L, server.get("requests"));
        Map<?, ?> block = (Map<?, ?>) ((Map<?, ?>) j.get("routes")).get("/block");
        assertEquals(Map.of("200", 1L, "503", 1L), block.get("statuses"));
        assertEquals(List.of("mean", "p50", "p90", "p99", "max"), List.copyOf(((Map<?, ?>) block.get("latencyMs")).keySet()));
        Map<?, ?> db = (Map<?, ?>) ((Map<?, ?>) j.get("services")).get("db");
        assertEquals(250.0, ((Number) db.get("orphanedMs")).doubleValue());
        assertEquals(Map.of("success", 0L, "failed", 0L, "cancelled", 1L, "timeout", 0L, "fallback", 0L, "orphaned", 0L),
                db.get("calls"));
        assertEquals(Map.of("size", 8L, "active", 2L, "queued", 5L), j.get("platformPool"));
        assertEquals(Map.of("db", Map.of("state", "open", "opened", 2L, "halfOpened", 1L, "closed", 1L)), j.get("breakers"));
        assertEquals(List.of(Map.of("limit", "rate_limit", "route", "/block", "keys", 3L, "evictions", 2L, "refused", 9L),
                Map.of("limit", "auth_failures", "route", "*", "keys", 1L, "evictions", 0L, "refused", 4L),
                Map.of("limit", "rate_limit", "route", "/shared", "keys", 1L, "evictions", 0L, "refused", 2L, "storeFallbacks", 5L)),
                j.get("limits"));
        Map<?, ?> redis = (Map<?, ?>) j.get("redis");
        assertEquals("open", redis.get("state"));
        assertEquals(Map.of("timeout", 3L, "open", 40L), redis.get("failures"));
    }

    @Test
    void textListsTheBreakers() {
        String text = TextFormat.render(snapshot());
        assertTrue(text.contains("Circuit breakers (times each state was entered)"), text);
        assertTrue(text.lines().anyMatch(l -> l.matches("db\\s+open\\s+2\\s+1\\s+1")), text);
    }

    @Test
    void textStartsWithTheClassicFields() {
        List<String> lines = TextFormat.render(snapshot()).lines().toList();
        List<String> names = List.of("Active Requests", "Total Requests", "Average Response Time", "CPU Usage",
                "Memory Usage", "JVM Uptime", "Thread Type");
        for (int i = 0; i < names.size(); i++) {
            assertEquals(names.get(i), lines.get(2 + i).substring(0, lines.get(2 + i).indexOf(':')));
        }
        assertEquals("Thread Type: Platform Threads (pool 8)", lines.get(8));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1 | PROMETHEUS
            text/plain;version=0.0.4                                                                                                                | PROMETHEUS
            text/plain; version=0.0.4; charset=utf-8                                                                                                | PROMETHEUS
            application/openmetrics-text                                                                                                            | PROMETHEUS
            application/json                                                                                                                        | JSON
            text/plain                                                                                                                              | TEXT
            */*                                                                                                                                     | TEXT
            text/html,application/xhtml+xml,application/xml;q=0.9                                                                                   | TEXT
            @@@;;;,,,=====                                                                                                                          | TEXT
            """)
    void acceptHeadersChooseTheFormat(String accept, MetricsFormat expected) {
        assertEquals(expected, MetricsFormat.negotiate(accept));
    }

    private static io.loomgate.upstream.EndpointState endpoint(String name, long calls) {
        Histogram latency = new Histogram();
        for (int i = 0; i < calls; i++) {
            latency.record(20_000_000);   // 20 ms each
        }
        return new io.loomgate.upstream.EndpointState(name, 0, calls, 1, 0, calls < 5, true, 1, latency.snapshot());
    }

    private static RequestSummary finished(String route, boolean started, int status, String id, long nanos) {
        return new RequestSummary(new RequestSummary.Asked(route, "GET", route, id, "", ""),
                new RequestSummary.Ending(started, status, io.loomgate.observe.event.Delivery.WHOLE, nanos), RequestSummary.Wire.NONE);
    }
}
