package io.loomgate.upstream.http;

import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.TraceParent;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.Value;
import io.loomgate.core.port.Call;
import io.loomgate.http.Headers;
import io.loomgate.upstream.cache.CacheSettings;
import io.loomgate.upstream.cache.CachedCalls;
import io.loomgate.upstream.cache.TargetedControl;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

/**
 * An http upstream's {@code "cache"} for its {@code GET} calls: the request's key (its URL below the
 * upstream's first endpoint), whether it is personal (it carries {@code Authorization}, or loomgate's
 * auth named its caller), and the call's {@code Cache-Status}, told to the request's ledger.
 */
final class UpstreamCache {

    /** How long a shared call may take when no upstream {@code timeout} says: its waiters end it sooner by leaving. */
    private static final Duration SHARED_CALL_LIMIT = Duration.ofSeconds(30);

    private final CachedCalls calls;
    private final Duration sharedWait;

    UpstreamCache(String upstream, CacheSettings settings, java.util.Optional<Duration> timeout) {
        this.calls = new CachedCalls(upstream, settings);
        this.sharedWait = timeout.orElse(SHARED_CALL_LIMIT);
    }

    CachedCalls calls() {
        return calls;
    }

    /** What a request brings to the cache: its {@code target} (path and query as sent), its fields, who it is for. */
    static CachedCalls.Ask ask(RequestContext ctx, String target, Headers fields, long deadlineNanos) {
        String authorization = fields.first("Authorization");
        boolean personal = authorization != null || ctx.caller().name().isPresent();
        String caller = personal ? digest((authorization == null ? "" : authorization) + "\n" + ctx.caller().name().orElse("")) : "";
        return new CachedCalls.Ask("GET " + target, fields, personal, caller, deadlineNanos);
    }

    Value call(HttpUpstream upstream, RequestContext ctx, Call call, Headers fields, TraceParent sent, Duration wait)
            throws UpstreamFailure, InterruptedException {
        CachedCalls.Ask ask = ask(ctx, upstream.callTarget(ctx, upstream.first(), call), fields, System.nanoTime() + wait.toNanos());
        Headers asked = TargetedControl.advertised(fields);   // the cache names itself a surrogate
        CachedCalls.Served served;
        try {
            served = calls.get(ask, conditions -> upstream.exchange(ctx, call, asked, sent, sharedWait, conditions));
        } catch (UpstreamFailure | InterruptedException | RuntimeException e) {
            throw e;
        } catch (SocketTimeoutException e) {
            throw UpstreamFailure.timedOut(upstream.id(), e.getMessage());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        ctx.ledger().cacheStatus(upstream.id().value(), served.cacheStatus());
        return upstream.answer(served.status(), served.headers(), served.body());
    }

    /** A caller's key: a digest, so no credential is kept or shown. */
    private static String digest(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
