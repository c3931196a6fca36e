package io.loomgate.upstream.cache;

import io.loomgate.http.Headers;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * What RFC 9111 lets a shared cache store and reuse, and loomgate's one stricter rule: an answer to
 * a personal request (one that carries {@code Authorization}, or a caller loomgate's own auth
 * identified) is stored for others only when it says {@code public} or {@code s-maxage}
 * (docs/decisions/0005-cache-sharing.md says why).
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
        if (CacheControl.parse(request.all("Cache-Control")).noStore()) {
            return Optional.of("the request said no-store");
        }
        CacheControl cc = CacheControl.parse(response.all("Cache-Control"));
        if (cc.noStore()) {
            return Optional.of("no-store");
        }
        if (cc.isPrivate()) {
            return Optional.of("private");
        }
        if (personal && !cc.isPublic() && cc.sMaxAge().isEmpty()) {
            return Optional.of("a personal request's answer without public or s-maxage");
        }
        if (StoredAnswer.varyOf(response).contains("*")) {
            return Optional.of("Vary: *");
        }
        boolean explicit = cc.maxAge().isPresent() || cc.sMaxAge().isPresent() || response.contains("Expires") || cc.isPublic();
        if (!explicit && !HEURISTIC_STATUSES.contains(status)) {
            return Optional.of("status " + status + " without explicit freshness");
        }
        if (status == 206 || status < 200) {
            return Optional.of("status " + status);
        }
        return Optional.empty();
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

    /** How long past its freshness {@code a} may be served when the upstream fails (RFC 5861), the same way. */
    public static Duration ifError(StoredAnswer a, Duration configured) {
        CacheControl cc = a.cacheControl();
        if (cc.mustRevalidate() || cc.noCache()) {
            return Duration.ZERO;
        }
        return cc.staleIfError().orElse(configured);
    }
}
