package io.loomgate.edge.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** A limit's {@code "by"} read once into what it keys by, and said in words. */
class KeySourceTest {

    @Test
    void eachFormOfByIsItsOwnSource() {
        assertEquals(new KeySource.ClientAddress(), KeySource.of("ip"));
        assertEquals(new KeySource.HeaderValue("X-Tenant"), KeySource.of("header.X-Tenant"));
        assertEquals(new KeySource.Caller("jwt.sub"), KeySource.of("jwt.sub"));
        assertEquals("client address", KeySource.of("ip").words());
        assertEquals("X-Tenant header value", KeySource.of("header.X-Tenant").words());
        assertEquals("API key", KeySource.of("apiKey").words());
        assertEquals("token subject", KeySource.of("jwt.sub").words());
    }

    @Test
    void aLimitReadsItsSourceWhenItIsBuiltNotPerRequest() {
        RateLimiter limiter = new RateLimiter(new RateLimiter.Settings(1, 1, "header.X-Key"), () -> 0);
        assertEquals(new KeySource.HeaderValue("X-Key"), limiter.source());
        assertSame(limiter.source(), limiter.source(), "one value, made once");
    }
}
