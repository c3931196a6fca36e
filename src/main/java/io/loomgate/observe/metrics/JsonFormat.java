package io.loomgate.observe.metrics;

import io.loomgate.json.JsonWriter;
import io.loomgate.observe.histogram.HistogramSnapshot;

/**
 * {@code /metrics?format=json}: {@code server}, {@code routes}, {@code services}, {@code jvm},
 * {@code virtualThreads} and {@code pool} (null in virtual mode). Latencies are in milliseconds. Each
 * route also has {@code lastMinute}: its requests, 5xx answers, p50 and p99 over the last 50 to 60 s,
 * and {@code cutOff}: streamed answers cut off because the upstream's body failed part way.
 */
final class JsonFormat {

    private JsonFormat() {
    }

    static String render(MetricsSnapshot s) {
        JsonWriter w = new JsonWriter(8 * 1024).beginObject();
        w.name("server").beginObject()
                .field("version", s.version())
                .field("threads", s.threads().wire());
        if (s.pool() != null) {
            w.field("pool", s.pool().size());
        } else {
            w.name("pool").nullValue();
        }
        w.field("uptimeMs", s.uptimeMs())
                .field("inFlight", s.inFlight())
                .field("requests", s.requests())
                .field("averageResponseMs", s.averageResponseMs())
                .field("shed", s.shed())
                .field("maxInflight", s.maxInflight());
        w.name("configReloads").beginObject().field("ok", s.reloads().ok()).field("failed", s.reloads().failed()).endObject();
        w.field("accessLogDropped", s.accessLogDropped());
        s.components().forEach(c -> c.serverJson(w));
        w.endObject();

        w.name("routes").beginObject();
        s.routes().forEach((route, r) -> {
            w.name(route).beginObject().field("requests", r.requests()).field("inFlight", r.inFlight())
                    .field("cutOff", r.cutOff());
            w.name("statuses").beginObject();
            r.statuses().forEach((status, n) -> w.field(String.valueOf(status), n));
            w.endObject();
            latency(w, r.latency(), true);
            HistogramSnapshot recent = r.lastMinute().latency();
            w.name("lastMinute").beginObject().field("requests", recent.count()).field("errors", r.lastMinute().errors())
                    .field("p50Ms", ms(recent, 0.50)).field("p99Ms", ms(recent, 0.99)).endObject();
            w.endObject();
        });
        w.endObject();

        w.name("services").beginObject();
        s.services().forEach((name, v) -> {
            w.name(name.value()).beginObject().field("inFlight", v.inFlight());
            w.name("calls").beginObject();
            v.calls().forEach((outcome, n) -> w.field(outcome.wire(), n));
            w.endObject();
            latency(w, v.latency(), false);
            w.field("orphanedMs", v.orphanedNanos() / 1e6).endObject();
        });
        w.endObject();

        JvmSnapshot j = s.jvm();
        w.name("jvm").beginObject()
                .field("heapUsedBytes", j.heapUsedBytes()).field("heapCommittedBytes", j.heapCommittedBytes())
                .field("heapMaxBytes", j.heapMaxBytes()).field("gcCount", j.gcCount()).field("gcTimeMs", j.gcTimeMs())
                .name("processCpuLoad").preciseValue(j.processCpuLoad())
                .field("uptimeMs", j.uptimeMs()).field("platformThreads", j.platformThreads())
                .endObject();

        w.name("limits").beginArray();
        s.limits().forEach(l -> {
            w.beginObject().field("limit", l.limit()).field("route", l.route()).field("keys", l.keys())
                    .field("evictions", l.evictions()).field("refused", l.refused());
            if (l.storeFallbacks() >= 0) {
                w.field("storeFallbacks", l.storeFallbacks());
            }
            w.endObject();
        });
        w.endArray();
        s.components().forEach(c -> c.topJson(w));
        VirtualThreads.Snapshot v = s.virtualThreads();
        w.name("virtualThreads").beginObject()
                .field("started", v.started()).field("parallelism", v.parallelism()).field("poolSize", v.poolSize())
                .field("mounted", v.mounted()).field("queued", v.queued()).field("pinnedEvents", v.pinnedEvents())
                .field("pinMonitor", v.pinMonitor());
        w.name("recentPins").beginArray();
        for (PinningMonitor.Pin p : v.recentPins()) {
            w.beginObject().field("at", p.at().toString()).field("durationMs", p.duration().toNanos() / 1e6)
                    .field("thread", p.thread()).name("frames").beginArray();
            p.topFrames().forEach(w::value);
            w.endArray().endObject();
        }
        w.endArray().endObject();

        if (s.pool() != null) {
            w.name("platformPool").beginObject().field("size", s.pool().size())
                    .field("active", s.pool().active()).field("queued", s.pool().queued()).endObject();
        } else {
            w.name("platformPool").nullValue();
        }
        return w.endObject().toString();
    }

    private static void latency(JsonWriter w, HistogramSnapshot h, boolean withMeanAndP90) {
        w.name("latencyMs").beginObject();
        if (withMeanAndP90) {
            w.field("mean", h.meanNanos() / 1e6);
        }
        w.field("p50", ms(h, 0.50));
        if (withMeanAndP90) {
            w.field("p90", ms(h, 0.90));
        }
        w.field("p99", ms(h, 0.99)).field("max", h.maxNanos() / 1e6).endObject();
    }

    private static double ms(HistogramSnapshot h, double q) {
        return h.percentileNanos(q) / 1e6;
    }
}
