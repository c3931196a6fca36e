package io.loomgate.upstream.cache;

import io.loomgate.http.Headers;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * An upstream's {@code GET}s through its cache: a fresh answer is served from it; a stale one is
 * served while one refresh runs (within {@code staleWhileRevalidate}), else revalidated with its
 * {@code ETag} or {@code Last-Modified} (a {@code 304} refreshes it); a miss is fetched once however
 * many identical calls wait for it ({@link Flights}); and when the upstream fails, a stale answer
 * within {@code staleIfError} is served instead. What can be stored follows {@link CachePolicy}.
 * Each call says how it was served in RFC 9211's words ({@code hit}, {@code fwd=miss; stored}, ...).
 */
public final class CachedCalls {

    /** An upstream's answer read whole, with when it was asked for and when it came (wall-clock ms). */
    public record Fetched(int status, Headers headers, byte[] body, long requestMillis, long responseMillis) {
    }

    /** One exchange with the upstream, with extra request fields (a revalidation's conditions). */
    @FunctionalInterface
    public interface Fetch {
        Fetched run(Headers conditions) throws Exception;
    }

    /** What a call got, and how the cache served it ({@code hit}, {@code fwd=miss; stored}, ...). */
    public record Served(int status, Headers headers, byte[] body, String cacheStatus) {
    }

    /** A fetch as it landed: what came, whether it was stored, and the request fields its {@code Vary} names. */
    private record Landed(Fetched fetched, boolean stored, List<String> varyValues, String how) {
    }

    /** What one request brings to the cache: its key, its fields, and whether it is personal. */
    public record Ask(String primary, Headers fields, boolean personal, String caller, long deadlineNanos) {
    }

    private final CacheSettings settings;
    private final AnswerCache cache;
    private final Flights<Landed> flights;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder staleServed = new LongAdder();
    private final LongAdder revalidations = new LongAdder();
    private final LongAdder collapsedProxied = new LongAdder();
    private final CacheLocks locks = new CacheLocks();

    public CachedCalls(String upstream, CacheSettings settings) {
        this.settings = settings;
        this.cache = new AnswerCache(settings.maxBytes());
        this.flights = new Flights<>("cache-" + upstream);
    }

    /** The answer to {@code ask}, from the cache or through {@code fetch}. */
    public Served get(Ask ask, Fetch fetch) throws Exception {
        String primary = primary(ask);
        boolean personal = personal(ask);
        long now = System.currentTimeMillis();
        StoredAnswer stored = stored(ask).orElse(null);
        if (stored != null) {
            CacheControl cc = stored.cacheControl();
            if (servesFresh(stored, now)) {
                return hit(stored, now);
            }
            Duration stale = stored.staleness(now, settings.defaultTtl());
            if (!cc.noCache() && CachePolicy.within(stale, CachePolicy.whileRevalidating(stored, settings.staleWhileRevalidate()))) {
                flights.refresh(flightKey(primary, ask, personal), () -> revalidate(primary, stored, ask, personal, fetch));
                return stale(stored, "hit; fwd=stale; detail=stale-while-revalidate");
            }
            boolean mayServeStale = CachePolicy.within(stale, CachePolicy.ifError(stored, settings.staleIfError()));
            try {
                Flights.Result<Landed> r = flights.await(flightKey(primary, ask, personal),
                        () -> revalidate(primary, stored, ask, personal, fetch), ask.deadlineNanos());
                Landed l = r.value();
                int got = l.fetched().status();
                if (mayServeStale && (got == 500 || got == 502 || got == 503 || got == 504)) {   // errors, as RFC 5861 counts them
                    return stale(stored, "fwd=stale; fwd-status=" + got + "; detail=stale-if-error");
                }
                return landed(l, "fwd=stale", r.joined());
            } catch (ExecutionException | TimeoutException failed) {
                if (mayServeStale) {
                    return stale(stored, "fwd=stale; detail=stale-if-error");
                }
                throw unwrapped(failed);
            }
        }
        misses.increment();
        try {
            Flights.Result<Landed> r = flights.await(flightKey(primary, ask, personal), () -> fill(primary, ask, personal, fetch),
                    ask.deadlineNanos());
            Landed l = r.value();
            if (!l.varyValues().equals(AnswerCache.values(StoredAnswer.varyOf(l.fetched().headers()), n -> ask.fields().first(n)))) {
                // the shared answer varies on a field this request has another value of: it fetches its own
                Landed own = fill(primary, ask, personal, fetch);
                return landed(own, "fwd=vary-miss", false);
            }
            return landed(l, "fwd=miss", r.joined());
        } catch (ExecutionException | TimeoutException failed) {
            throw unwrapped(failed);
        }
    }

    /** What the cache has for a proxied request ({@link Lookup}); anything but a fresh answer counts as a miss. */
    public Lookup lookup(Ask ask) {
        long now = System.currentTimeMillis();
        Optional<StoredAnswer> stored = stored(ask);
        if (stored.isPresent() && servesFresh(stored.get(), now)) {
            return new Lookup(Optional.of(hit(stored.get(), now)), Optional.empty(), false, false);
        }
        misses.increment();
        if (stored.isEmpty()) {
            return Lookup.NONE;
        }
        if (stored.get().cacheControl().noCache()) {
            return new Lookup(Optional.empty(), stored, false, false);   // never served without the upstream's word: revalidated
        }
        Duration stale = stored.get().staleness(now, settings.defaultTtl());
        return new Lookup(Optional.empty(), stored,
                CachePolicy.within(stale, CachePolicy.whileRevalidating(stored.get(), settings.staleWhileRevalidate())),
                CachePolicy.within(stale, CachePolicy.ifError(stored.get(), settings.staleIfError())));
    }

    /**
     * A proxied miss's turn ({@link CacheLocks}): it leads, and goes upstream, or it waited for the
     * identical miss in flight, for half the time it has left at most (the other half is for its own
     * call, should it have to make one: nginx's {@code proxy_cache_lock_timeout}, set by the deadline).
     */
    public CacheLocks.Turn turn(Ask ask) throws InterruptedException {
        String primary = primary(ask);
        long now = System.nanoTime();
        return locks.take(flightKey(primary, ask, personal(ask)), now + (ask.deadlineNanos() - now) / 2);
    }

    /** After waiting for another's proxied answer: that answer, if it was stored and is fresh ({@code fwd=miss; collapsed}). */
    public Optional<Served> collapsed(Ask ask) {
        long now = System.currentTimeMillis();
        Optional<StoredAnswer> stored = stored(ask).filter(a -> servesFresh(a, now));
        stored.ifPresent(a -> collapsedProxied.increment());
        return stored.map(a -> served(a, now, "fwd=miss; collapsed"));
    }

    /** Whether a proxied answer with this head may be stored, so that identical misses wait for it. */
    public boolean mayStore(Ask ask, int status, Headers headers) {
        return storable(ask, personal(ask), status, headers);
    }

    /** The stored answer {@code ask}'s key and fields name (the variant its {@code Vary} fields pick). */
    private Optional<StoredAnswer> stored(Ask ask) {
        return cache.get(primary(ask), n -> ask.fields().first(n));
    }

    /** {@code a} may be served without asking the upstream: fresh, and not {@code no-cache}. */
    private boolean servesFresh(StoredAnswer a, long now) {
        return !a.cacheControl().noCache() && a.fresh(now, settings.defaultTtl());
    }

    /** Its answers are personal and kept apart from others' (unless each caller has answers of its own anyway, {@code keyBy}). */
    private boolean personal(Ask ask) {
        return ask.personal() && !settings.byCaller();
    }

    /** Negative caching is off: only 2xx answers are kept, and only those {@link CachePolicy} allows. */
    private boolean storable(Ask ask, boolean personal, int status, Headers headers) {
        return status >= 200 && status <= 299
                && CachePolicy.refusal(ask.fields(), personal, status, headers, settings.stripSetCookie()).isEmpty();
    }

    /** {@code a}, fresh, served from the cache: a hit, with how many more seconds it is fresh. */
    private Served hit(StoredAnswer a, long now) {
        hits.increment();
        return served(a, now, "hit; ttl=" + a.lifetime(settings.defaultTtl()).minus(a.age(now)).toSeconds());
    }

    /** {@code a}, served stale as {@code status} says ({@code hit; fwd=stale; detail=stale-while-revalidate}). */
    public Served stale(StoredAnswer a, String status) {
        staleServed.increment();
        return served(a, System.currentTimeMillis(), status);
    }

    /** Refreshes {@code old} in the background with {@code fetch}, unless a call for it is in flight already. */
    public void refresh(Ask ask, StoredAnswer old, Fetch fetch) {
        String primary = primary(ask);
        boolean personal = personal(ask);
        flights.refresh(flightKey(primary, ask, personal), () -> revalidate(primary, old, ask, personal, fetch));
    }

    /** A proxied answer, read whole as it streamed: stored when the policy allows; true when it was. */
    public boolean offer(Ask ask, Fetched f) {
        String primary = primary(ask);
        return store(primary, ask, personal(ask), f, "").stored();
    }

    /** The largest answer the cache stores: a tenth of {@code maxBytes}; a proxied answer past it streams on unstored. */
    public long largestStored() {
        return settings.maxBytes() / 10;
    }

    /** Where {@code ask}'s answers are kept: its URL, and its caller's digest when each caller has answers of its own. */
    private String primary(Ask ask) {
        return settings.byCaller() ? ask.primary() + "\u0001" + ask.caller() : ask.primary();
    }

    /** A miss: fetched, and stored when the policy allows. Runs on the shared call's thread. */
    private Landed fill(String primary, Ask ask, boolean personal, Fetch fetch) throws Exception {
        Fetched f = fetch.run(Headers.EMPTY);
        return store(primary, ask, personal, f, "");
    }

    /** The request fields that ask the upstream whether {@code old} is still good (RFC 9111 section 4.3.1). */
    public static Headers conditions(StoredAnswer old) {
        Headers.Builder conditions = Headers.builder();
        old.etag().ifPresent(e -> conditions.add("If-None-Match", e));
        old.lastModified().ifPresent(m -> conditions.add("If-Modified-Since", m));
        return conditions.build();
    }

    /** A proxied revalidation of {@code old} the upstream answered {@code 304} ({@code f}, no body): {@code old}, refreshed, served. */
    public Served notModified(Ask ask, StoredAnswer old, Fetched f) {
        revalidations.increment();
        if (!old.selectedBy(f.headers())) {   // a 304 naming another representation: served as stored, updated with nothing
            return served(old, System.currentTimeMillis(), "fwd=stale; fwd-status=304");
        }
        StoredAnswer refreshed = old.refreshedBy(CachePolicy.shareable(f.headers()), f.requestMillis(), f.responseMillis());
        boolean stored = cache.put(primary(ask), refreshed);
        return served(refreshed, System.currentTimeMillis(), "fwd=stale; fwd-status=304" + (stored ? "; stored" : ""));
    }

    /** A stale answer asked again with its validators; a 304 refreshes it. Runs on the shared call's thread. */
    private Landed revalidate(String primary, StoredAnswer old, Ask ask, boolean personal, Fetch fetch) throws Exception {
        revalidations.increment();
        Fetched f = fetch.run(conditions(old));
        if (f.status() != 304) {
            return store(primary, ask, personal, f, "; fwd-status=" + f.status());
        }
        boolean selected = old.selectedBy(f.headers());   // else a 304 naming another representation: served as stored
        StoredAnswer refreshed = selected ? old.refreshedBy(CachePolicy.shareable(f.headers()), f.requestMillis(), f.responseMillis()) : old;
        boolean stored = selected && cache.put(primary, refreshed);   // a cookie the 304 sets is for no one: shareable() drops it
        return new Landed(new Fetched(refreshed.status(), refreshed.headers(), refreshed.body(), refreshed.requestMillis(),
                refreshed.responseMillis()), stored, refreshed.varyValues(), "; fwd-status=304");
    }

    private Landed store(String primary, Ask ask, boolean personal, Fetched f, String how) {
        List<String> vary = AnswerCache.values(StoredAnswer.varyOf(f.headers()), n -> ask.fields().first(n));
        boolean stored = storable(ask, personal, f.status(), f.headers()) && cache.put(primary,
                new StoredAnswer(f.status(), CachePolicy.shareable(f.headers()), f.body(), f.requestMillis(), f.responseMillis(), vary));
        return new Landed(f, stored, vary, how);
    }

    /** Requests from different callers never share a call when the answer may be personal. */
    private static String flightKey(String primary, Ask ask, boolean personal) {
        return personal ? primary + "\u0002" + ask.caller() : primary;
    }

    /** {@code collapsed}: this call joined one another request started (RFC 9211), and gets none of its personal fields. */
    private Served landed(Landed l, String fwd, boolean collapsed) {
        Fetched f = l.fetched();
        return new Served(f.status(), collapsed ? CachePolicy.shareable(f.headers()) : f.headers(), f.body(), fwd + l.how() + (l.stored() ? "; stored" : "") + (collapsed ? "; collapsed" : ""));
    }

    private static Served served(StoredAnswer a, long now, String status) {
        Headers h = a.headers().without(n -> n.equalsIgnoreCase("Age")).plus("Age", Long.toString(a.age(now).toSeconds()));
        return new Served(a.status(), h, a.body(), status);
    }

    private static Exception unwrapped(Exception e) {
        if (e instanceof ExecutionException x && x.getCause() instanceof Exception cause) {
            return cause;
        }
        if (e instanceof TimeoutException) {
            return new java.net.SocketTimeoutException("no answer from the shared call within this request's time");
        }
        return e;
    }

    /** Removes {@code primary}'s answers (every caller's, with {@code keyBy}); how many there were. */
    public int purge(String primary) {
        return cache.purge(primary);
    }

    /** An operator's purge ({@link Purge}); how many answers it took. */
    public int purge(Purge what) {
        return cache.purge(what, System.currentTimeMillis());
    }

    /** The counts {@code /metrics} shows. */
    public record Stats(long hits, long misses, long staleServed, long revalidations, long coalesced, long evictions, long bytes,
                        int entries, long maxBytes, int lockWaiting) {
    }

    public Stats stats() {
        return new Stats(hits.sum(), misses.sum(), staleServed.sum(), revalidations.sum(), flights.coalesced() + collapsedProxied.sum(),
                cache.evictions(),
                cache.bytes(), cache.size(), cache.maxBytes(), locks.waiting());
    }
}
