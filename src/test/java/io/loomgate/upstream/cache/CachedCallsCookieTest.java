package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.http.Headers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The cookie rule without sockets: a call that joined another's, and a 304 that sets a cookie. */
class CachedCallsCookieTest {

    private static final CacheSettings STRIP = new CacheSettings(1 << 20, Duration.ZERO, Duration.ZERO, Duration.ZERO, false, true);
    private static final CacheSettings REFUSE = new CacheSettings(1 << 20, Duration.ZERO, Duration.ZERO, Duration.ZERO, false, false);

    private static CachedCalls.Ask ask() {
        return new CachedCalls.Ask("GET /x", Headers.EMPTY, false, "", System.nanoTime() + TimeUnit.SECONDS.toNanos(20));
    }

    private static CachedCalls.Fetched answer(int n, String cacheControl) {
        long now = System.currentTimeMillis();
        return new CachedCalls.Fetched(200, Headers.of("Cache-Control", cacheControl, "Set-Cookie", "sid=" + n, "ETag", "\"v1\""),
                ("{\"n\":" + n + "}").getBytes(), now, now);
    }

    @Test
    void aCallThatJoinedAnothersGetsNoneOfItsCookies() throws Exception {
        for (CacheSettings settings : new CacheSettings[] {STRIP, REFUSE}) {
            CachedCalls cache = new CachedCalls("api", settings);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger fetched = new AtomicInteger();
            try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
                CompletableFuture<CachedCalls.Served> first = CompletableFuture.supplyAsync(() -> get(cache, () -> {
                    started.countDown();
                    release.await();
                    return answer(fetched.incrementAndGet(), "max-age=60");
                }), pool);
                started.await();
                CompletableFuture<CachedCalls.Served> joined = CompletableFuture.supplyAsync(() -> get(cache, () -> {
                    return answer(fetched.incrementAndGet(), "max-age=60");
                }), pool);
                while (cache.stats().coalesced() == 0) {
                    Thread.sleep(5);
                }
                release.countDown();
                assertEquals("sid=1", first.get().headers().first("Set-Cookie"), "the starter's own cookie");
                CachedCalls.Served theirs = joined.get();
                assertTrue(theirs.cacheStatus().contains("collapsed"), theirs.cacheStatus());
                assertNull(theirs.headers().first("Set-Cookie"), settings + ": " + theirs.headers());
                assertEquals(1, fetched.get());
            }
        }
    }

    @Test
    void aRevalidationsNotModifiedThatSetsACookieDoesNotPutItInTheStoredAnswer() throws Exception {
        CachedCalls cache = new CachedCalls("api", STRIP);
        get(cache, () -> answer(1, "no-cache"));   // stored, revalidated before every use
        long now = System.currentTimeMillis();
        CachedCalls.Served revalidated = cache.get(ask(), conditions -> {
            assertEquals("\"v1\"", conditions.first("If-None-Match"));
            return new CachedCalls.Fetched(304, Headers.of("Set-Cookie", "sid=304", "ETag", "\"v1\""), new byte[0], now, now);
        });
        assertTrue(revalidated.cacheStatus().contains("fwd-status=304"), revalidated.cacheStatus());
        assertNull(revalidated.headers().first("Set-Cookie"), revalidated.headers().toString());
        assertEquals("{\"n\":1}", new String(revalidated.body()));
    }

    @Test
    void theQualifiedFormsNameFieldsAndTheRestIsKept() {
        CacheControl cc = CacheControl.parse(java.util.List.of("max-age=60, no-cache=\"Set-Cookie, X-User\"", "private=\"X-Trace\""));
        assertFalse(cc.noCache(), "the qualified no-cache does not make the whole answer revalidate");
        assertFalse(cc.isPrivate());
        assertEquals(java.util.Set.of("set-cookie", "x-user", "x-trace"), cc.personalFields());
        assertTrue(CacheControl.parse(java.util.List.of("no-cache")).noCache());
        assertTrue(CacheControl.parse(java.util.List.of("private")).isPrivate());
        Headers shared = CachePolicy.shareable(Headers.of("Cache-Control", "max-age=60, private=\"X-User\"", "X-User", "a",
                "Set-Cookie", "b", "Set-Cookie2", "c", "ETag", "\"v\""));
        assertEquals(java.util.List.of("Cache-Control", "ETag"), shared.names().stream().toList());
        assertEquals(java.util.Optional.of("Set-Cookie"),
                CachePolicy.refusal(Headers.EMPTY, false, 200, Headers.of("Cache-Control", "max-age=60", "Set-Cookie", "a=b")));
        assertTrue(CachePolicy.refusal(Headers.EMPTY, false, 200, Headers.of("Cache-Control", "max-age=60", "Set-Cookie", "a=b"), true)
                .isEmpty());
        assertTrue(CachePolicy.refusal(Headers.EMPTY, false, 200,
                Headers.of("Cache-Control", "max-age=60, private=\"Set-Cookie\"", "Set-Cookie", "a=b")).isEmpty());
    }

    private interface Body {
        CachedCalls.Fetched run() throws Exception;
    }

    private static CachedCalls.Served get(CachedCalls cache, Body body) {
        try {
            return cache.get(ask(), conditions -> body.run());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
