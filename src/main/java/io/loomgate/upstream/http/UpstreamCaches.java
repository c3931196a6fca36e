package io.loomgate.upstream.http;

import io.loomgate.client.Origin;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.TraceParent;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.Value;
import io.loomgate.core.port.Call;
import io.loomgate.core.port.Extensions;
import io.loomgate.http.Headers;
import io.loomgate.upstream.cache.CacheSettings;
import io.loomgate.upstream.cache.CachedCalls;
import io.loomgate.upstream.cache.CallCache;
import io.loomgate.upstream.cache.Invalidation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An http upstream's caches: its own {@code "cache"}, which its proxy routes and its calls use, and
 * those its composed calls declare for themselves ({@link CallCache}), one for each distinct
 * settings that the plan being served declares. An unsafe request through the upstream invalidates
 * what all of them hold, since all hold answers of the same URLs.
 */
final class UpstreamCaches {

    private final String upstream;
    private final Optional<Duration> timeout;
    private final Optional<UpstreamCache> own;
    private volatile Map<CacheSettings, UpstreamCache> calls = Map.of();

    UpstreamCaches(String upstream, Optional<CacheSettings> own, Optional<Duration> timeout) {
        this.upstream = upstream;
        this.timeout = timeout;
        this.own = own.map(c -> new UpstreamCache(upstream, c, timeout));
    }

    /** The upstream's own cache, which proxy routes use. */
    Optional<UpstreamCache> own() {
        return own;
    }

    /**
     * The cache {@code call} goes through: its own when it declares one, none when it says
     * {@code false}, else the upstream's. A call of a plan a reload has just replaced may find its
     * own gone: it then goes upstream uncached.
     */
    Optional<UpstreamCache> of(Call call) {
        Optional<CallCache> declared = call.extensions().find(CallCache.class);
        if (declared.isEmpty()) {
            return own;
        }
        return declared.get().settings().map(calls::get);
    }

    /**
     * One call: a {@code GET} without a body through the cache it goes through ({@link #of}), any
     * other straight to the upstream, and then, if unsafe, what it changed dropped from every cache.
     */
    Value call(HttpUpstream upstream, RequestContext ctx, Call call, Headers fields, TraceParent sent, Duration wait)
            throws UpstreamFailure, InterruptedException {
        boolean get = call.method().equals("GET");
        Optional<UpstreamCache> cache = of(call);
        if (cache.isPresent() && get && call.body() == null) {
            return cache.get().call(upstream, ctx, call, fields, sent, wait);
        }
        CachedCalls.Fetched f = upstream.exchange(ctx, call, fields, sent, wait, Headers.EMPTY);
        if (!get && holdsAny()) {
            invalidate(call.method(), f.status(), upstream.callTarget(ctx, upstream.first(), call), f.headers(), upstream.first());
        }
        return upstream.answer(f.status(), f.headers(), f.body());
    }

    /**
     * The calls to this upstream that the plan now compiled declares: a cache for each distinct
     * settings among them, those it had kept with their answers, the others dropped.
     */
    synchronized void declared(List<Extensions> declared) {
        Map<CacheSettings, UpstreamCache> kept = new HashMap<>();
        for (Extensions e : declared) {
            e.find(CallCache.class).flatMap(CallCache::settings).ifPresent(s -> kept.computeIfAbsent(s,
                    k -> calls.containsKey(k) ? calls.get(k) : new UpstreamCache(upstream, k, timeout)));
        }
        calls = Map.copyOf(kept);
    }

    /** Whether it has a cache at all: else an unsafe request has nothing to invalidate, and no target need be worked out. */
    boolean holdsAny() {
        return own.isPresent() || !calls.isEmpty();
    }

    /** Every cache it has, its own first: what the admin API purges and the metrics count. */
    List<CachedCalls> all() {
        List<CachedCalls> all = new ArrayList<>();
        own.ifPresent(c -> all.add(c.calls()));
        calls.values().forEach(c -> all.add(c.calls()));
        return all;
    }

    /** After an unsafe request ({@code POST}, ...) to {@code at}: what it made stale dropped from every cache ({@link Invalidation}). */
    void invalidate(String method, int status, String target, Headers answer, Origin at) {
        for (CachedCalls c : all()) {
            Invalidation.after(c, method, status, target, answer, at.host(), at.port());
        }
    }
}
