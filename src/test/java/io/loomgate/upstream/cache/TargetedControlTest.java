package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.http.Headers;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** RFC 9213's targeted fields as {@link TargetedControl} reads them: the cases of the cache-tests suite's CDN-Cache-Control set. */
class TargetedControlTest {

    private static final long NOW = 1_800_000_000_000L;

    private static Optional<Duration> maxAge(String... fields) {
        return CacheControl.ofResponse(Headers.of(fields)).maxAge();
    }

    @Test
    void aValidTargetedFieldTakesThePlaceOfCacheControl() {
        assertEquals(Optional.of(Duration.ofSeconds(3600)), maxAge("Cache-Control", "max-age=1", "CDN-Cache-Control", "max-age=3600"));
        assertEquals(Optional.of(Duration.ofSeconds(1)), maxAge("Cache-Control", "max-age=3600", "CDN-Cache-Control", "max-age=1"));
        assertEquals(Optional.of(Duration.ofSeconds(3600)), maxAge("CDN-Cache-Control", "foobar, max-age=3600"), "an extension beside it");
        assertEquals(Optional.of(Duration.ofSeconds(Integer.MAX_VALUE + 1L)), maxAge("CDN-Cache-Control", "max-age=99999999999"));
        assertEquals(Optional.of(Duration.ofSeconds(60)), maxAge("CDN-Cache-Control", "max-age=3600", "Loomgate-Cache-Control", "max-age=60"),
                "loomgate's own target is the more specific");
        CacheControl fresh = CacheControl.ofResponse(Headers.of("Cache-Control", "no-store", "CDN-Cache-Control", "max-age=10000"));
        assertFalse(fresh.noStore(), "Cache-Control's no-store set aside");
        assertTrue(CacheControl.ofResponse(Headers.of("Cache-Control", "max-age=10000", "CDN-Cache-Control", "no-store")).noStore());
        assertTrue(CacheControl.ofResponse(Headers.of("Cache-Control", "max-age=10000", "CDN-Cache-Control", "private")).isPrivate());
        assertTrue(CacheControl.ofResponse(Headers.of("Cache-Control", "max-age=10000", "CDN-Cache-Control", "no-cache")).noCache());
    }

    @Test
    void anInvalidOneIsIgnored() {
        for (String bad : List.of("max-age=10000, &&&&&", "max-age=\"10000\"", "max-age =100", "max-age= 100", "MaX-aGe=3600",
                "max-age=10000,", "max-age=1.5", "no-store=1", "max-age=-5", "max-age=1234567890123456")) {
            assertEquals(Optional.of(Duration.ofSeconds(1)), maxAge("Cache-Control", "max-age=1", "CDN-Cache-Control", bad),
                    bad + ": not a valid dictionary of cache directives, so Cache-Control counts");
        }
        assertEquals(Optional.of(Duration.ofSeconds(60)), maxAge("Loomgate-Cache-Control", "max-age='1'", "CDN-Cache-Control", "max-age=60"),
                "an invalid first target gives way to the next");
    }

    @Test
    void expiresIsSetAsideWithCacheControl() {
        StoredAnswer a = new StoredAnswer(200, Headers.of("CDN-Cache-Control", "max-age=3600", "Expires", "0"), new byte[0], NOW, NOW, List.of());
        assertEquals(Duration.ofSeconds(3600), a.lifetime(Duration.ZERO), "an invalid Expires does not make it stale");
        StoredAnswer b = new StoredAnswer(200, Headers.of("CDN-Cache-Control", "max-age=0", "Expires", "Thu, 18 Aug 2050 02:01:18 GMT"),
                new byte[0], NOW, NOW, List.of());
        assertFalse(b.fresh(NOW, Duration.ZERO), "a future Expires does not make it fresh");
    }

    @Test
    void theyAreStrippedForTheClient() {
        Headers h = TargetedControl.strip(Headers.of("CDN-Cache-Control", "max-age=60", "loomgate-cache-control", "max-age=1", "Cache-Control", "max-age=5"));
        assertEquals(List.of("Cache-Control"), h.names().stream().toList());
    }

    @Test
    void surrogateControlDecidesWhenNoRfc9213FieldDoes() {
        assertEquals(Optional.of(Duration.ofSeconds(1)), maxAge("Cache-Control", "max-age=3600", "Surrogate-Control", "max-age=1"));
        assertEquals(Optional.of(Duration.ofSeconds(3600)), maxAge("Surrogate-Control", "MaX-aGe=3600"), "in Cache-Control's syntax, any case");
        assertEquals(Optional.of(Duration.ofSeconds(3600)), maxAge("Surrogate-Control", "foobar, max-age=3600"));
        assertEquals(Optional.of(Duration.ofSeconds(60)), maxAge("Surrogate-Control", "max-age=60;loomgate"), "targeted at loomgate");
        assertEquals(Optional.of(Duration.ofSeconds(5)), maxAge("Cache-Control", "max-age=5", "Surrogate-Control", "max-age=3600;not-for-you"),
                "targeted at another surrogate: as if absent");
        assertEquals(Optional.of(Duration.ofSeconds(7)), maxAge("Surrogate-Control", "max-age=3600;other, max-age=7"),
                "another's directive set aside, the untargeted one read");
        assertEquals(Optional.of(Duration.ofSeconds(60)), maxAge("Surrogate-Control", "max-age=1", "CDN-Cache-Control", "max-age=60"),
                "RFC 9213's field comes first");
        assertTrue(CacheControl.ofResponse(Headers.of("Cache-Control", "max-age=10000", "Surrogate-Control", "no-store")).noStore());
        assertFalse(CacheControl.ofResponse(Headers.of("Cache-Control", "no-store", "Surrogate-Control", "max-age=10000;loomgate")).noStore());
        StoredAnswer a = new StoredAnswer(200, Headers.of("Surrogate-Control", "max-age=0", "Expires", "Thu, 18 Aug 2050 02:01:18 GMT"),
                new byte[0], NOW, NOW, List.of());
        assertFalse(a.fresh(NOW, Duration.ZERO), "Expires set aside with Cache-Control");
        assertEquals(List.of("Surrogate-Control"), TargetedControl.strip(Headers.of("Surrogate-Control", "max-age=1")).names().stream().toList(),
                "it reaches the client: a surrogate in front may be the target of the rest");
        assertEquals(List.of("a=\"Surrogate/1.0\"", "loomgate=\"Surrogate/1.0\""),
                TargetedControl.advertised(Headers.of("Surrogate-Capability", "a=\"Surrogate/1.0\"")).all("Surrogate-Capability"),
                "the cache names itself beside a surrogate in front");
    }
}
