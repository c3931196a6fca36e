package io.loomgate.edge.limit;

import io.loomgate.http.Headers;

/**
 * A route's rate limit as its filter takes it: this instance's own ({@link RateLimiter}) or one the
 * fleet shares on Redis ({@link SharedLimiter}). Either answers with the same {@code RateLimit-*}
 * headers, and the same 429 with {@code Retry-After} when the key's bucket is empty.
 */
public sealed interface Limit permits RateLimiter, SharedLimiter {

    RateLimiter.Settings settings();

    /** What its buckets are keyed by, read from {@code settings().by()} once, when the plan was built. */
    KeySource source();

    /**
     * Takes a token from the bucket of a key given as bytes (an address).
     *
     * @return the {@code RateLimit-*} headers to add to the answer
     * @throws io.loomgate.http.HttpError 429 when the bucket was empty (503 for a shared limit that may not fall back)
     */
    Headers admit(byte[] key);

    /** {@link #admit(byte[])} for a key given as text (a caller's name, a header's value). */
    Headers admit(String key);

    /** Keys with a bucket in this instance now (a shared limit's: those it fell back to). */
    int keys();

    /** Buckets evicted to make room for new keys since start. */
    long evictions();

    /** Requests refused with 429 since start. */
    long refused();
}
