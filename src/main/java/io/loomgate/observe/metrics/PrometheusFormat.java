package io.loomgate.observe.metrics;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.observe.histogram.ExportedBuckets;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Prometheus text exposition format 0.0.4: snake_case names prefixed {@code loomgate_}, {@code _total}
 * on counters, {@code _seconds} on durations, HELP and TYPE before each family, label values
 * escaped, and histograms as cumulative {@code _bucket{le=...}} at {@link ExportedBuckets}'s 85
 * boundaries (1 ms to 60 s, 5% apart from 100 ms to 2.5 s) with {@code +Inf} equal to
 * {@code _count}, plus {@code _sum}.
 */
final class PrometheusFormat {

    private final PrometheusWriter w = new PrometheusWriter();

    private PrometheusFormat() {
    }

    static String render(MetricsSnapshot s) {
        PrometheusFormat p = new PrometheusFormat();
        p.server(s);
        p.routes(s);
        p.services(s);
        s.components().forEach(c -> c.prometheus(p.w));
        p.limits(s);
        p.virtualThreads(s.virtualThreads());
        p.jvm(s.jvm());
        if (s.pool() != null) {
            p.pool(s.pool());
        }
        return p.w.toString();
    }

    private void server(MetricsSnapshot s) {
        w.family("loomgate_info", "gauge", "Version and thread mode of this loomgate.");
        w.sample("loomgate_info", "version", s.version(), "threads", s.threads().wire(), 1);
        w.family("loomgate_uptime_seconds", "gauge", "Time since the server started.");
        w.sample("loomgate_uptime_seconds", s.uptimeMs() / 1000.0);
        w.family("loomgate_server_in_flight", "gauge", "Exchanges being read, handled or written now.");
        w.sample("loomgate_server_in_flight", s.inFlight());
        w.family("loomgate_requests_shed_total", "counter", "Requests refused with 503 by the admission limit.");
        w.sample("loomgate_requests_shed_total", s.shed());
        w.family("loomgate_config_reloads_total", "counter",
                "Reloads of the route file: ok (swapped in), failed (refused; the running configuration kept).");
        w.sample("loomgate_config_reloads_total", "result", "ok", s.reloads().ok());
        w.sample("loomgate_config_reloads_total", "result", "failed", s.reloads().failed());
        w.family("loomgate_access_log_dropped_total", "counter", "Access-log lines dropped because the log's queue was full.");
        w.sample("loomgate_access_log_dropped_total", s.accessLogDropped());
    }

    private void routes(MetricsSnapshot s) {
        w.family("loomgate_requests_total", "counter", "Requests answered, by route and status code.");
        s.routes().forEach((route, r) -> r.statuses().forEach((status, n) ->
                w.sample("loomgate_requests_total", "route", route, "status", String.valueOf(status), n)));
        w.family("loomgate_requests_in_flight", "gauge", "Requests whose handler is running, by route.");
        s.routes().forEach((route, r) -> w.sample("loomgate_requests_in_flight", "route", route, r.inFlight()));
        w.family("loomgate_responses_cut_off_total", "counter",
                "Streamed answers cut off part way (connection closed) because the upstream's body failed, by route.");
        s.routes().forEach((route, r) -> w.sample("loomgate_responses_cut_off_total", "route", route, r.cutOff()));
        String h = "loomgate_request_duration_seconds";
        w.family(h, "histogram", "Request latency from the first byte read to the end of the response.");
        s.routes().forEach((route, r) -> w.histogram(h, "route", route, r.latency()));
    }

    private void services(MetricsSnapshot s) {
        Map<UpstreamId, ServiceStats.ServiceSnapshot> services = s.services();
        w.family("loomgate_service_calls_total", "counter", "Service calls, by service and how they ended.");
        services.forEach((name, v) -> v.calls().forEach((outcome, n) ->
                w.sample("loomgate_service_calls_total", "service", name.value(), "outcome", outcome.wire(), n)));
        w.family("loomgate_service_calls_in_flight", "gauge", "Service calls running now.");
        services.forEach((name, v) -> w.sample("loomgate_service_calls_in_flight", "service", name.value(), v.inFlight()));
        String h = "loomgate_service_call_duration_seconds";
        w.family(h, "histogram", "Service call durations (orphans: until their request was answered).");
        services.forEach((name, v) -> w.histogram(h, "service", name.value(), v.latency()));
        w.family("loomgate_service_orphaned_work_seconds_total", "counter",
                "Work CompletableFuture-baseline calls did after their request was answered.");
        services.forEach((name, v) -> w.sample("loomgate_service_orphaned_work_seconds_total", "service", name.value(),
                v.orphanedNanos() / 1e9));
    }

    private void limits(MetricsSnapshot s) {
        if (s.limits().isEmpty()) {
            return;
        }
        w.family("loomgate_limit_keys", "gauge", "Keys a limit holds now (16-byte digests, bounded by its maxKeys), by limit and route.");
        s.limits().forEach(l -> w.sample("loomgate_limit_keys", "limit", l.limit(), "route", l.route(), l.keys()));
        w.family("loomgate_limit_evictions_total", "counter", "Keys evicted, least recently used first, to make room for new ones.");
        s.limits().forEach(l -> w.sample("loomgate_limit_evictions_total", "limit", l.limit(), "route", l.route(), l.evictions()));
        w.family("loomgate_limit_refused_total", "counter", "Requests a limit refused with 429.");
        s.limits().forEach(l -> w.sample("loomgate_limit_refused_total", "limit", l.limit(), "route", l.route(), l.refused()));
        if (s.limits().stream().anyMatch(l -> l.storeFallbacks() >= 0)) {
            w.family("loomgate_limit_store_fallbacks_total", "counter",
                    "Requests a shared limit took without an answer from Redis: let through by the local bucket, or refused, as onStoreError says.");
            s.limits().stream().filter(l -> l.storeFallbacks() >= 0).forEach(l -> w.sample("loomgate_limit_store_fallbacks_total",
                    "limit", l.limit(), "route", l.route(), l.storeFallbacks()));
        }
    }

    private void virtualThreads(VirtualThreads.Snapshot v) {
        w.family("loomgate_virtual_threads_started_total", "counter", "Virtual threads loomgate started.");
        w.sample("loomgate_virtual_threads_started_total", v.started());
        w.gauge("loomgate_virtual_thread_scheduler_parallelism", "Carrier threads the scheduler aims for.", v.parallelism());
        w.gauge("loomgate_virtual_thread_scheduler_pool_size", "Carrier threads that exist.", v.poolSize());
        w.gauge("loomgate_virtual_thread_scheduler_mounted", "Virtual threads running on a carrier.", v.mounted());
        w.gauge("loomgate_virtual_thread_scheduler_queued", "Virtual threads waiting for a carrier.", v.queued());
        w.family("loomgate_virtual_thread_pinned_events_total", "counter",
                "jdk.VirtualThreadPinned events (pins of 20 ms or more); -1 without JFR.");
        w.sample("loomgate_virtual_thread_pinned_events_total", v.pinnedEvents());
    }

    private void jvm(JvmSnapshot j) {
        w.gauge("loomgate_jvm_heap_used_bytes", "Heap in use.", j.heapUsedBytes());
        w.gauge("loomgate_jvm_heap_committed_bytes", "Heap committed by the JVM.", j.heapCommittedBytes());
        w.gauge("loomgate_jvm_heap_max_bytes", "Largest heap the JVM may use.", j.heapMaxBytes());
        w.family("loomgate_jvm_gc_collections_total", "counter", "Garbage collections, all collectors.");
        w.sample("loomgate_jvm_gc_collections_total", j.gcCount());
        w.family("loomgate_jvm_gc_time_seconds_total", "counter", "Time spent in garbage collection, all collectors.");
        w.sample("loomgate_jvm_gc_time_seconds_total", j.gcTimeMs() / 1000.0);
        w.gauge("loomgate_process_cpu_load_ratio", "Recent CPU use of this process, 0 to 1 of all cores.", j.processCpuLoad());
        w.gauge("loomgate_jvm_platform_threads", "Live platform threads.", j.platformThreads());
    }

    private void pool(ServerGauges.Pool p) {
        w.gauge("loomgate_pool_threads", "Threads in the platform request pool.", p.size());
        w.gauge("loomgate_pool_active_threads", "Pool threads running a request now.", p.active());
        w.gauge("loomgate_pool_queued_requests", "Requests waiting for a pool thread.", p.queued());
    }
}
