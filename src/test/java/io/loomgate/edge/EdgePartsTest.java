package io.loomgate.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.edge.auth.ApiKeys;
import io.loomgate.edge.auth.EdgeException;
import io.loomgate.edge.cors.Cors;
import io.loomgate.edge.limit.RateLimiter;
import io.loomgate.http.HttpError;
import io.loomgate.http.Response;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** API keys, rate limits and CORS on their own, without sockets. */
class EdgePartsTest {

    @TempDir
    Path dir;

    static String sha256(String key) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void apiKeysHoldOnlyHashesAndFindTheName() throws Exception {
        Path file = dir.resolve("keys.txt");
        Files.writeString(file, "# name and the key's SHA-256\nmobile-app " + sha256("k-123") + "\n\nbilling " + sha256("k-456") + "\n");
        ApiKeys keys = ApiKeys.read(file);
        assertEquals(2, keys.size());
        assertEquals(Optional.of("mobile-app"), keys.nameOf("k-123"));
        assertEquals(Optional.of("billing"), keys.nameOf("k-456"));
        assertEquals(Optional.empty(), keys.nameOf("k-12"));
        assertEquals(Optional.empty(), keys.nameOf(sha256("k-123")), "the hash itself is not a key");

        Files.writeString(file, "mobile-app k-123\n");
        assertTrue(assertThrows(EdgeException.class, () -> ApiKeys.read(file)).getMessage()
                .startsWith(file + ":1: must be NAME SHA256-HEX"), "a plain key in the file is refused");
        Files.writeString(file, "a " + sha256("x") + "\na " + sha256("y") + "\n");
        assertEquals(file + ":2: the name 'a' is given twice", assertThrows(EdgeException.class, () -> ApiKeys.read(file)).getMessage());
        Files.writeString(file, "# nothing\n");
        assertEquals(file + ": holds no key (one NAME SHA256-HEX per line)",
                assertThrows(EdgeException.class, () -> ApiKeys.read(file)).getMessage());
    }

    @Test
    void aTokenBucketAllowsItsBurstThenItsRate() {
        AtomicLong now = new AtomicLong(0);
        RateLimiter limiter = new RateLimiter(new RateLimiter.Settings(2, 3, "ip"), now::get);
        for (int i = 3; i > 0; i--) {
            RateLimiter.Decision d = limiter.take("a");
            assertTrue(d.allowed());
            assertEquals(i - 1, d.remaining());
        }
        RateLimiter.Decision refused = limiter.take("a");
        assertFalse(refused.allowed());
        assertEquals(1, refused.retryAfterSeconds(), "half a second to the next token, said as whole seconds");
        assertEquals(2, refused.resetSeconds(), "1.5 s until full, rounded up");
        assertTrue(limiter.take("b").allowed(), "another key has its own bucket");
        now.addAndGet(Duration.ofMillis(500).toNanos());
        assertTrue(limiter.take("a").allowed(), "one token back after half a second at 2 a second");
        assertFalse(limiter.take("a").allowed());
    }

    @Test
    void aFullKeyTableEvictsTheLeastRecentlyUsedAndNeverLocksANewcomerOut() {
        AtomicLong now = new AtomicLong(0);
        RateLimiter limiter = new RateLimiter(new RateLimiter.Settings(0.001, 1, "header.X-Key", 1_000), now::get);
        assertTrue(limiter.take("victim").allowed());
        assertFalse(limiter.take("victim").allowed(), "the victim's one token is spent");
        for (int i = 0; i < 5_000; i++) {
            assertTrue(limiter.take("flood-" + i).allowed(), "every new key starts with a full bucket: flood-" + i);
            if (i % 100 == 0) {
                assertFalse(limiter.take("victim").allowed(), "a key in use keeps its (empty) bucket while the flood evicts");
            }
        }
        assertTrue(limiter.keys() <= 1_000, "bounded by maxKeys: " + limiter.keys());
        assertTrue(limiter.evictions() >= 4_000, "the flood evicted its own old keys: " + limiter.evictions());
        assertTrue(limiter.take("newcomer").allowed(), "a newcomer after the flood gets its own bucket, full");
        assertEquals(51, limiter.refused(), "the victim's refusals, counted: its second request and 50 checks");
    }

    @Test
    void aKeyCostsItsDigestWhateverItsLength() {
        RateLimiter limiter = new RateLimiter(new RateLimiter.Settings(1, 1, "header.X-Key", 10), () -> 0);
        String huge = "x".repeat(15_000);
        assertTrue(limiter.take(huge).allowed());
        assertFalse(limiter.take(huge).allowed(), "the same 15 KB value is the same key");
        assertTrue(limiter.take(huge + "y").allowed(), "a different value is another key");
        assertEquals(2, limiter.keys());
    }

    @Test
    void corsAnswersPreflightsAndAddsHeadersOnlyForAllowedOrigins() {
        Cors cors = new Cors(List.of("https://app.test"), List.of("GET", "POST"), List.of("Content-Type", "X-Trace"), List.of(),
                Duration.ofMinutes(10), false);
        Response ok = cors.preflight("https://app.test", "POST", "content-type, x-trace");
        assertEquals(204, ok.status());
        assertEquals("https://app.test", ok.headers().first("Access-Control-Allow-Origin"));
        assertEquals("GET, POST", ok.headers().first("Access-Control-Allow-Methods"));
        assertEquals("content-type, x-trace", ok.headers().first("Access-Control-Allow-Headers"));
        assertEquals("600", ok.headers().first("Access-Control-Max-Age"));
        assertEquals(403, assertThrows(HttpError.class, () -> cors.preflight("https://evil.test", "GET", null)).status());
        assertTrue(assertThrows(HttpError.class, () -> cors.preflight("https://app.test", "DELETE", null)).getMessage()
                .contains("method DELETE is not allowed"));
        assertTrue(assertThrows(HttpError.class, () -> cors.preflight("https://app.test", "GET", "X-Secret")).getMessage()
                .contains("header X-Secret is not allowed"));

        Response plain = Response.text(200, Response.TEXT, "hi");
        Response allowed = cors.decorate("https://app.test", plain);
        assertEquals("https://app.test", allowed.headers().first("Access-Control-Allow-Origin"));
        assertTrue(allowed.headers().first("Access-Control-Expose-Headers").contains("X-Request-Id"));
        assertEquals("Origin", allowed.headers().first("Vary"));
        Response other = cors.decorate("https://evil.test", plain);
        assertFalse(other.headers().contains("Access-Control-Allow-Origin"), "no headers: the browser keeps the answer from that page");
        assertThrows(IllegalArgumentException.class, () -> new Cors(List.of("*"), List.of("GET"), List.of(), List.of(),
                Duration.ZERO, true), "any origin with credentials");
        io.loomgate.http.Headers any = new Cors(List.of("*"), List.of("GET"), List.of(), List.of(), Duration.ZERO, false)
                .decorate("https://x.test", plain).headers();
        assertEquals("*", any.first("Access-Control-Allow-Origin"));
    }
}
