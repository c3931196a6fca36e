package io.loomgate.upstream.cache;

import java.util.Optional;

/**
 * What an operator purges from one upstream's cache ({@code DELETE /admin/cache/{upstream}}): one
 * URL's answers ({@code key}, every variant and caller's), every answer that carries a tag
 * ({@code tag}: an upstream's {@code Cache-Tag} or {@code Surrogate-Key}), or everything; dropped,
 * or with {@code soft} only marked stale from now, so {@code staleWhileRevalidate} and
 * {@code staleIfError} still cover the next requests and a revalidation may keep the body.
 *
 * @param key  a URL below the upstream (its path and query), or empty
 * @param tag  a tag, or empty; not both
 * @param soft mark stale instead of dropping
 */
public record Purge(Optional<String> key, Optional<String> tag, boolean soft) {

    public Purge {
        if (key.isPresent() && tag.isPresent()) {
            throw new IllegalArgumentException("purge by key or by tag, not both");
        }
    }

    /** Whether it takes the answer {@code primary} names. */
    boolean takes(String primary, StoredAnswer answer) {
        if (key.isPresent()) {
            String k = "GET " + key.get();
            return primary.equals(k) || primary.startsWith(k + "\u0001");   // each caller's, for a cache keyed by caller
        }
        return tag.map(t -> answer.tags().contains(t)).orElse(true);
    }
}
