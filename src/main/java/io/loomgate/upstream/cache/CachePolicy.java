package io.loomgate.upstream.cache;

import io.loomgate.http.Headers;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * What RFC 9111 lets a shared cache store and reuse, and loomgate's two stricter rules: an answer to
 * a personal request (one that carries {@code Authorization}, or a caller loomgate's own auth
 * identified) is stored for others only when it says {@code public} or {@code s-maxage}
 * (docs/decisions/0005-cache-sharing.md says why); and an answer that sets a cookie is not stored
 * at all unless the upstream's cache says {@code "storeWithSetCookie": "strip"} or the answer itself
 * names {@code Set-Cookie} in {@code private="..."} or {@code no-cache="..."}, and then it is stored
 * without it (nginx and Varnish do not store such answers either). Whatever is stored never holds a
 * {@code Set-Cookie}, nor a field the answer marked personal ({@link #shareable}).
 */
public final class CachePolicy {

    /** Statuses a cache may keep without explicit freshness (RFC 9110 section 15.1), 206 left out. */
    static final Set<Integer> HEURISTIC_STATUSES = Set.of(200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501);

    private CachePolicy() {
    }

    /**
     * Why the answer ({@code status}, {@code response}) to a {@code GET} with {@code request} fields
     * may not be stored; empty when it may.
     *
     * @param personal the request carried {@code Authorization} or an identified caller, and the
     *                 cache is not keyed by caller
     */
    public static Optional<String> refusal(Headers request, boolean personal, int status, Headers response) {
        return refusal(request, personal, status, response, false);
    }

    /**
     * The same, with {@code stripSetCookie}: an answer that sets a cookie may be stored without it
     * ({@code "storeWithSetCookie": "strip"}); otherwise it is refused unless the answer itself
     * marks {@code Set-Cookie} personal.
     */
    public static Optional<String> refusal(Headers request, boolean personal, int status, Headers response,
                                           boolean stripSetCookie) {
        if (CacheControl.parse(request.all("Cache-Control")).noStore()) {
            return Optional.of("the request said no-store");
        }
        CacheControl cc = CacheControl.ofResponse(response);
        if (cc.noStore()) {
            return Optional.of("no-store");
        }
        if (cc.isPrivate()) {
            return Optional.of("private");
        }
        if (personal && !cc.isPublic() && cc.sMaxAge().isEmpty()) {
            return Optional.of("a personal request's answer without public or s-maxage");
        }
        if (!stripSetCookie && setsCookie(response) && !cc.personalFields().contains("set-cookie")) {
            return Optional.of("Set-Cookie");
        }
        if (StoredAnswer.varyOf(response).contains("*")) {
            return Optional.of("Vary: *");
        }
        boolean explicit = cc.maxAge().isPresent() || cc.sMaxAge().isPresent() || cc.isPublic()
                || response.contains("Expires") && TargetedControl.of(response).isEmpty();   // a targeted field sets Expires aside
        if (!explicit && !HEURISTIC_STATUSES.contains(status)) {
            return Optional.of("status " + status + " without explicit freshness");
        }
        if (status == 206 || status < 200) {
            return Optional.of("status " + status);
        }
        return Optional.empty();
    }

    /** True when {@code response} sets a cookie ({@code Set-Cookie}, or the obsolete {@code Set-Cookie2}). */
    public static boolean setsCookie(Headers response) {
        return response.contains("Set-Cookie") || response.contains("Set-Cookie2");
    }

    /**
     * {@code response}'s fields as anyone but the client they were sent to may see them: without
     * {@code Set-Cookie} and {@code Set-Cookie2}, and without the fields its {@code private="..."} or
     * {@code no-cache="..."} names (RFC 9111 sections 5.2.2.4 and 5.2.2.7). What the cache stores,
     * and what a request that joined another's call is given.
     */
    public static Headers shareable(Headers response) {
        java.util.Set<String> personal = CacheControl.ofResponse(response).personalFields();
        return response.without(n -> n.equalsIgnoreCase("Set-Cookie") || n.equalsIgnoreCase("Set-Cookie2")
                || personal.contains(n.toLowerCase(java.util.Locale.ROOT)));
    }

    /**
     * How long past its freshness {@code a} may still be served while a refresh runs: the answer's
     * own {@code stale-while-revalidate}, else the route file's; never for {@code must-revalidate}
     * or {@code no-cache}.
     */
    public static Duration whileRevalidating(StoredAnswer a, Duration configured) {
        CacheControl cc = a.cacheControl();
        if (cc.mustRevalidate() || cc.noCache()) {
            return Duration.ZERO;
        }
        return cc.staleWhileRevalidate().orElse(configured);
    }

    /**
     * Whether an answer {@code stale} past its freshness is within {@code window}: a window of zero
     * holds nothing, not even an answer that went stale this very millisecond.
     */
    public static boolean within(Duration stale, Duration window) {
        return window.isPositive() && stale.compareTo(window) <= 0;
    }

    /** How long past its freshness {@code a} may be served when the upstream fails (RFC 5861), the same way. */
    public static Duration ifError(StoredAnswer a, Duration configured) {
        CacheControl cc = a.cacheControl();
        if (cc.mustRevalidate() || cc.noCache()) {
            return Duration.ZERO;
        }
        return cc.staleIfError().orElse(configured);
    }
}
