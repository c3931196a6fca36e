package io.loomgate.upstream.cache;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.json.JsonWriter;
import io.loomgate.observe.MetricSet;
import io.loomgate.observe.MetricSink;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** The caches' metrics, by upstream: {@code loomgate_cache_*}, and {@code server.caches} in the JSON form. */
public record CacheMetrics(Map<UpstreamId, CachedCalls.Stats> caches) implements MetricSet {

    public CacheMetrics {
        caches = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(caches));   // in the upstreams' order
    }

    /** Several caches' stats counted together: an upstream's own and its calls' ({@code calls.NAME.cache}). */
    public static CachedCalls.Stats total(List<CachedCalls> caches) {
        CachedCalls.Stats t = new CachedCalls.Stats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        for (CachedCalls c : caches) {
            CachedCalls.Stats s = c.stats();
            t = new CachedCalls.Stats(t.hits() + s.hits(), t.misses() + s.misses(), t.staleServed() + s.staleServed(),
                    t.revalidations() + s.revalidations(), t.coalesced() + s.coalesced(), t.evictions() + s.evictions(),
                    t.bytes() + s.bytes(), t.entries() + s.entries(), t.maxBytes() + s.maxBytes(), t.lockWaiting() + s.lockWaiting());
        }
        return t;
    }

    @Override
    public void prometheus(MetricSink w) {
        if (caches.isEmpty()) {
            return;
        }
        family(w, "loomgate_cache_hits_total", "counter", "Calls served fresh from an upstream's cache.", CachedCalls.Stats::hits);
        family(w, "loomgate_cache_misses_total", "counter", "Calls that found nothing in the cache (joined or started a call).",
                CachedCalls.Stats::misses);
        family(w, "loomgate_cache_stale_served_total", "counter",
                "Stale answers served: while a refresh ran, or because the upstream failed.", CachedCalls.Stats::staleServed);
        family(w, "loomgate_cache_revalidations_total", "counter", "Stale answers asked again with their validators.",
                CachedCalls.Stats::revalidations);
        family(w, "loomgate_cache_coalesced_total", "counter", "Calls that joined an identical call in flight instead of making their own.",
                CachedCalls.Stats::coalesced);
        family(w, "loomgate_cache_evictions_total", "counter", "Answers evicted, least recently used first, to stay within maxBytes.",
                CachedCalls.Stats::evictions);
        family(w, "loomgate_cache_bytes", "gauge", "Bytes the cache holds: bodies, fields and keys.", CachedCalls.Stats::bytes);
        family(w, "loomgate_cache_entries", "gauge", "Answers the cache holds.", CachedCalls.Stats::entries);
        family(w, "loomgate_cache_max_bytes", "gauge", "The cache's maxBytes.", CachedCalls.Stats::maxBytes);
        family(w, "loomgate_cache_lock_waiting", "gauge", "Proxied misses waiting now for an identical one's answer to be stored.",
                CachedCalls.Stats::lockWaiting);
    }

    private void family(MetricSink w, String name, String type, String help, ToDoubleFunction<CachedCalls.Stats> value) {
        w.family(name, type, help);
        caches.forEach((id, c) -> w.sample(name, value.applyAsDouble(c), "service", id.value()));
    }

    @Override
    public void serverJson(JsonWriter w) {
        if (caches.isEmpty()) {
            return;
        }
        w.name("caches").beginObject();
        caches.forEach((id, c) -> w.name(id.value()).beginObject().field("hits", c.hits()).field("misses", c.misses())
                .field("staleServed", c.staleServed()).field("revalidations", c.revalidations()).field("coalesced", c.coalesced())
                .field("evictions", c.evictions()).field("bytes", c.bytes()).field("entries", c.entries())
                .field("maxBytes", c.maxBytes()).field("lockWaiting", c.lockWaiting()).endObject());
        w.endObject();
    }
}
