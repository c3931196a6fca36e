package io.loomgate.upstream.http;

import io.loomgate.core.call.RequestContext;
import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.upstream.cache.CacheControl;
import io.loomgate.upstream.cache.CacheLocks;
import io.loomgate.upstream.cache.CachedCalls;
import io.loomgate.upstream.cache.Lookup;
import io.loomgate.upstream.cache.StoredAnswer;
import java.util.Optional;

/**
 * A proxy route's cache around one {@code GET} or {@code HEAD}: before it goes upstream, what the
 * cache serves it (a fresh answer; a stale one while one refresh runs) or the {@link Turn} it goes
 * with (the lock identical misses wait on, a stale answer to revalidate or to serve if the upstream
 * fails); after, what a {@code 304} to a revalidation serves. The answer that streams back is
 * stored by {@link ProxyExchange} as it streams.
 */
final class ProxyCache {

    private final CachedCalls calls;
    private final String upstream;

    ProxyCache(CachedCalls calls, String upstream) {
        this.calls = calls;
        this.upstream = upstream;
    }

    CachedCalls calls() {
        return calls;
    }

    /**
     * What the cache made of a request before it went.
     *
     * @param ask      its key and fields; null when its answer is not stored (a HEAD, a client's {@code no-cache})
     * @param stale    a stored answer past its freshness (or stored {@code no-cache}): asked again with its validators
     * @param ifError  whether {@code stale} may be served if the upstream fails ({@code staleIfError})
     * @param lead     the lock identical misses wait on, while this one goes upstream; null when it leads none
     * @param bypassed the {@code Cache-Status} of a request that asked to bypass the cache
     */
    record Turn(CachedCalls.Ask ask, Optional<StoredAnswer> stale, boolean ifError, CacheLocks.Lead lead, Headers bypassed) {

        static final Turn NONE = new Turn(null, Optional.empty(), false, null, Headers.EMPTY);

        /** Whether the request goes as a revalidation: a stale answer with an {@code ETag} or {@code Last-Modified}. */
        boolean revalidates() {
            return ask != null && stale.isPresent() && !CachedCalls.conditions(stale.get()).isEmpty();
        }

        /**
         * The request's fields as they go upstream: for a revalidation, the stale answer's validators
         * instead of the client's own {@code If-None-Match} and {@code If-Modified-Since}, which are
         * then answered from the refreshed answer (RFC 9111 section 4.3.2).
         */
        Headers fields(Headers forwarded) {
            if (!revalidates()) {
                return forwarded;
            }
            return forwarded.without(n -> n.equalsIgnoreCase("If-None-Match") || n.equalsIgnoreCase("If-Modified-Since"))
                    .plus(CachedCalls.conditions(stale.get()));
        }

        /** The answer to serve when the upstream fails, if any. */
        Optional<StoredAnswer> onError() {
            return ifError ? stale : Optional.empty();
        }

        void release(CacheLocks.Ended how) {
            if (lead != null) {
                lead.end(how);
            }
        }
    }

    /** What the cache does with a request before it goes: serves it ({@link Served}), or sends it with a {@link Turn} ({@link Go}). */
    sealed interface Before {
        record Served(Response response) implements Before {
        }

        record Go(Turn turn) implements Before {
        }
    }

    /**
     * A proxied {@code GET} or {@code HEAD} through the cache.
     *
     * @param key     its URL below the upstream's first endpoint, as the cache names answers
     * @param refresh reads the upstream's answer whole, for a background refresh
     */
    Before before(RequestContext ctx, Request request, Headers forwarded, String key, CachedCalls.Fetch refresh)
            throws InterruptedException {
        boolean head = request.method().equals("HEAD");
        CacheControl asked = CacheControl.parse(request.headers().all("Cache-Control"));
        if (asked.noCache() || asked.noStore()) {   // the client asks for the upstream's own answer: it goes there, and says so
            return new Before.Go(passed("fwd=request"));
        }
        CachedCalls.Ask ask = UpstreamCache.ask(ctx, key, forwarded, ctx.deadlineNanos());
        Lookup found = calls.lookup(ask);
        if (found.fresh().isPresent()) {
            return new Before.Served(StoredResponses.of(upstream, found.fresh().get(), request));   // a HEAD gets a stored GET's head
        }
        if (head) {
            return new Before.Go(passed("fwd=miss"));   // a HEAD's own answer has no body to store
        }
        if (found.whileRevalidating()) {
            calls.refresh(ask, found.stale().get(), refresh);
            return new Before.Served(StoredResponses.of(upstream, calls.stale(found.stale().get(), "hit; fwd=stale; detail=stale-while-revalidate"), request));
        }
        CacheLocks.Lead lead = null;
        CacheLocks.Turn turn = calls.turn(ask);   // a GET miss: identical ones in flight share one upstream call
        if (turn instanceof CacheLocks.Lead l) {
            lead = l;
        } else if (turn instanceof CacheLocks.Waited w && w.stored()) {
            Optional<CachedCalls.Served> theirs = calls.collapsed(ask);
            if (theirs.isPresent()) {
                return new Before.Served(StoredResponses.of(upstream, theirs.get(), request));
            }
        }
        return new Before.Go(new Turn(ask, found.stale(), found.ifError(), lead, Headers.EMPTY));
    }

    /** A request the cache lets pass without a look ({@code how}: its RFC 9211 {@code fwd}), its answer saying so. */
    Turn passed(String how) {
        return new Turn(null, Optional.empty(), false, null, Headers.of("Cache-Status", status(how)));
    }

    /** The stale answer served because the upstream failed ({@code detail}: how), and the lock let go. */
    Response staleOnError(Turn turn, String detail, Request request) {
        turn.release(CacheLocks.Ended.NOT_STORED);
        return StoredResponses.of(upstream, calls.stale(turn.onError().orElseThrow(), detail), request);
    }

    /** A revalidation the upstream answered {@code 304} ({@code fields}): the stored answer refreshed, and served. */
    Response notModified(Turn turn, Headers fields, long sentAt, Request request) {
        CachedCalls.Served served = calls.notModified(turn.ask(), turn.stale().orElseThrow(),
                new CachedCalls.Fetched(304, fields, new byte[0], sentAt, System.currentTimeMillis()));
        turn.release(CacheLocks.Ended.STORED);   // those waiting are served the refreshed answer
        return StoredResponses.of(upstream, served, request);
    }

    /**
     * An answer's fields as the client sees them through a cache: without the targeted fields
     * ({@code CDN-Cache-Control}, {@code Loomgate-Cache-Control}) and the tags ({@code Cache-Tag},
     * {@code Surrogate-Key}), which are for this cache.
     */
    static Headers forClient(Headers fields) {
        return io.loomgate.upstream.cache.TargetedControl.strip(fields)
                .without(n -> StoredAnswer.TAG_FIELDS.stream().anyMatch(n::equalsIgnoreCase));
    }

    /** The {@code Cache-Status} of an answer that went upstream ({@code fwd=miss}, {@code fwd=stale; fwd-status=200}). */
    Headers forwarded(Turn turn, int status) {
        return Headers.of("Cache-Status", status(turn.stale().isPresent() ? "fwd=stale; fwd-status=" + status : "fwd=miss"));
    }

    private String status(String how) {
        return "loomgate/" + upstream + "; " + how;
    }
}
