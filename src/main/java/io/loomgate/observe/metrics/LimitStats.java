package io.loomgate.observe.metrics;

/**
 * One limit kept per key (a route's rate limit or pre-auth limit, or the refused credentials per
 * client address), as {@code /metrics} shows it.
 *
 * @param limit     {@code rate_limit}, {@code pre_auth} or {@code auth_failures}
 * @param route     the route it guards; {@code *} for one shared by every route
 * @param keys      keys held now, each a fixed 16-byte digest (bounded by the limit's {@code maxKeys})
 * @param evictions keys evicted, least recently used first, to make room for new ones
 * @param refused   requests it refused with 429
 * @param storeFallbacks for a limit shared on Redis, requests that met no answer from it (and were let
 *                  through by the local bucket or refused, as {@code onStoreError} says); -1 for a local limit
 */
public record LimitStats(String limit, String route, long keys, long evictions, long refused, long storeFallbacks) {

    /** A limit this instance keeps alone. */
    public LimitStats(String limit, String route, long keys, long evictions, long refused) {
        this(limit, route, keys, evictions, refused, -1);
    }
}
