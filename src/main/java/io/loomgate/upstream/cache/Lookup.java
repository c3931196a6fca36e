package io.loomgate.upstream.cache;

import java.util.Optional;

/**
 * What the cache has for a proxied request, which streams its own answer when it goes upstream
 * ({@link CachedCalls#lookup}).
 *
 * @param fresh             a fresh answer, counted as a hit
 * @param stale             a stale one (or one stored with {@code no-cache}): revalidated when the request goes upstream
 * @param whileRevalidating it may be served now while one refresh runs
 * @param ifError           it may be served if the upstream fails
 */
public record Lookup(Optional<CachedCalls.Served> fresh, Optional<StoredAnswer> stale, boolean whileRevalidating, boolean ifError) {

    /** Nothing the request may be served. */
    public static final Lookup NONE = new Lookup(Optional.empty(), Optional.empty(), false, false);
}
