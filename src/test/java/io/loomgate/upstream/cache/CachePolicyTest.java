package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.http.Headers;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** RFC 9111's rules as {@link CacheControl}, {@link StoredAnswer} and {@link CachePolicy} apply them, on made-up answers. */
class CachePolicyTest {

    private static final long NOW = 1_800_000_000_000L;

    private static String date(long millis) {
        return DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", java.util.Locale.US).format(Instant.ofEpochMilli(millis).atZone(ZoneOffset.UTC));
    }

    private static StoredAnswer answer(String... fields) {
        return new StoredAnswer(200, Headers.of(fields), new byte[0], NOW, NOW, List.of());
    }

    /** RFC 9111 sections 1.2.2, 4.2.1, 5.1, 5.2 and 5.3, as the cache-tests suite probes them. */
    @Test
    void malformedFieldsAreReadAsTheRfcSays() {
        assertEquals(Optional.of(Duration.ofSeconds(1800)), CacheControl.parse(List.of("max-age=1800, max-age=1")).maxAge(), "the first occurrence");
        assertEquals(Optional.of(Duration.ofSeconds(1)), CacheControl.parse(List.of("max-age=1", "max-age=1800")).maxAge(), "over lines too");
        assertEquals(Optional.of(Duration.ofSeconds(3600)), CacheControl.parse(List.of("max-age=\"3600\"")).maxAge(), "quoted: read");
        assertEquals(Optional.of(Duration.ofSeconds(3600)), CacheControl.parse(List.of("max-age=003600")).maxAge());
        for (String bad : List.of("max-age='3600'", "max-age =3600", "max-age= 3600", "max-age=3600a", "max-age=a3600", "max-age=3600.5")) {
            assertEquals(Optional.of(Duration.ZERO), CacheControl.parse(List.of(bad)).maxAge(), bad + ": malformed, so stale");
        }
        assertEquals(Optional.of(Duration.ofSeconds(1)), CacheControl.parse(List.of("extension=\"max-age=3600\", max-age=1")).maxAge(),
                "a max-age inside a quoted string is no directive");
        assertEquals(Duration.ZERO, answer("Expires", "Thu, 18 Aug 2050 2:01:18 GMT").lifetime(Duration.ofHours(1)), "a 1-digit hour");
        assertEquals(Duration.ZERO, answer("Expires", "Thu, 18 Aug 2050 02:01:18 UTC").lifetime(Duration.ofHours(1)), "a zone but GMT");
        assertEquals(Duration.ZERO, answer("Expires", "Thu, 18 Aug 2050 02:01:18 GMT", "Expires", "Thu, 18 Aug 2050 02:01:18 GMT")
                .lifetime(Duration.ofHours(1)), "two Expires lines");
        assertTrue(answer("Expires", "Thu, 18 Aug 2050 02:01:18 GMT").lifetime(Duration.ZERO).toDays() > 365, "a valid one counts");
        StoredAnswer aged = new StoredAnswer(200, Headers.of("Age", "10a", "Date", date(NOW)), new byte[0], NOW, NOW, List.of());
        assertEquals(Duration.ZERO, aged.age(NOW), "an Age that is not a non-negative integer is ignored");
        StoredAnswer negative = new StoredAnswer(200, Headers.of("Age", "-10", "Date", date(NOW)), new byte[0], NOW, NOW, List.of());
        assertEquals(Duration.ZERO, negative.age(NOW));
    }

    @Test
    void directivesAreReadFromEveryLineAndUnknownOnesIgnored() {
        CacheControl cc = CacheControl.parse(List.of("max-age=60, S-MaxAge=\"120\"", "must-revalidate, x-ext=1, stale-if-error=30"));
        assertEquals(Optional.of(Duration.ofSeconds(60)), cc.maxAge());
        assertEquals(Optional.of(Duration.ofSeconds(120)), cc.sMaxAge());
        assertTrue(cc.mustRevalidate());
        assertEquals(Optional.of(Duration.ofSeconds(30)), cc.staleIfError());
        assertFalse(cc.noStore() || cc.isPrivate() || cc.noCache());
        assertEquals(Optional.of(Duration.ZERO), CacheControl.parse(List.of("max-age=soon")).maxAge(), "a malformed max-age: stale");
        assertEquals(Optional.of(Duration.ofSeconds(Integer.MAX_VALUE + 1L)), CacheControl.parse(List.of("max-age=99999999999999")).maxAge());
    }

    @Test
    void aSharedCacheCountsSMaxAgeThenMaxAgeThenExpiresThenTheDefault() {
        Duration ttl = Duration.ofSeconds(7);
        assertEquals(Duration.ofSeconds(20), answer("Cache-Control", "max-age=10, s-maxage=20").lifetime(ttl));
        assertEquals(Duration.ofSeconds(10), answer("Cache-Control", "max-age=10", "Expires", date(NOW + 99_000)).lifetime(ttl));
        assertEquals(Duration.ofSeconds(30), answer("Date", date(NOW), "Expires", date(NOW + 30_000)).lifetime(ttl));
        assertEquals(Duration.ZERO, answer("Expires", "0").lifetime(ttl), "an invalid Expires is in the past");
        assertEquals(ttl, answer("Content-Type", "application/json").lifetime(ttl), "no freshness: the route file's default");
    }

    @Test
    void ageCountsTheAgeFieldTheTripAndTheTimeHeld() {
        StoredAnswer a = new StoredAnswer(200, Headers.of("Age", "5", "Date", date(NOW), "Cache-Control", "max-age=10"), new byte[0],
                NOW - 1_000, NOW, List.of());
        assertEquals(Duration.ofSeconds(6), a.age(NOW), "5 s old when sent, and 1 s on its way");
        assertEquals(Duration.ofSeconds(9), a.age(NOW + 3_000));
        assertTrue(a.fresh(NOW + 3_000, Duration.ZERO));
        assertFalse(a.fresh(NOW + 4_000, Duration.ZERO), "10 s old: no longer fresh");
        assertEquals(Duration.ofSeconds(2), a.staleness(NOW + 6_000, Duration.ZERO));
    }

    @Test
    void whatASharedCacheMayNotStore() {
        Headers plain = Headers.EMPTY;
        assertEquals(Optional.of("no-store"), CachePolicy.refusal(plain, false, 200, Headers.of("Cache-Control", "no-store, max-age=60")));
        assertEquals(Optional.of("private"), CachePolicy.refusal(plain, false, 200, Headers.of("Cache-Control", "private, max-age=60")));
        assertEquals(Optional.of("Vary: *"), CachePolicy.refusal(plain, false, 200, Headers.of("Cache-Control", "max-age=60", "Vary", "*")));
        assertEquals(Optional.of("the request said no-store"),
                CachePolicy.refusal(Headers.of("Cache-Control", "no-store"), false, 200, Headers.of("Cache-Control", "max-age=60")));
        assertTrue(CachePolicy.refusal(plain, false, 302, Headers.EMPTY).isPresent(), "a 302 without freshness");
        assertTrue(CachePolicy.refusal(plain, false, 200, Headers.EMPTY).isEmpty(), "a 200 may be kept for the default ttl");
        assertTrue(CachePolicy.refusal(plain, false, 200, Headers.of("Cache-Control", "no-cache", "ETag", "\"v1\"")).isEmpty(),
                "no-cache is stored, to be revalidated");
    }

    @Test
    void aPersonalRequestsAnswerIsSharedOnlyWhenItSaysPublicOrSMaxAge() {
        Headers auth = Headers.of("Authorization", "Bearer x");
        assertTrue(CachePolicy.refusal(auth, true, 200, Headers.of("Cache-Control", "max-age=60")).isPresent());
        assertTrue(CachePolicy.refusal(auth, true, 200, Headers.of("Cache-Control", "max-age=60, must-revalidate")).isPresent(),
                "stricter than RFC 9111: must-revalidate alone does not make it shared");
        assertTrue(CachePolicy.refusal(auth, true, 200, Headers.of("Cache-Control", "public, max-age=60")).isEmpty());
        assertTrue(CachePolicy.refusal(auth, true, 200, Headers.of("Cache-Control", "s-maxage=60")).isEmpty());
    }

    @Test
    void staleIsNeverServedForMustRevalidateOrNoCache() {
        assertEquals(Duration.ofSeconds(10), CachePolicy.whileRevalidating(answer("Cache-Control", "max-age=1"), Duration.ofSeconds(10)));
        assertEquals(Duration.ofSeconds(3),
                CachePolicy.whileRevalidating(answer("Cache-Control", "max-age=1, stale-while-revalidate=3"), Duration.ofSeconds(10)));
        assertEquals(Duration.ZERO, CachePolicy.whileRevalidating(answer("Cache-Control", "max-age=1, must-revalidate"), Duration.ofSeconds(10)));
        assertEquals(Duration.ZERO, CachePolicy.ifError(answer("Cache-Control", "no-cache"), Duration.ofSeconds(60)));
    }

    @Test
    void a304RefreshesTheStoredFields() {
        StoredAnswer a = new StoredAnswer(200, Headers.of("ETag", "\"v1\"", "Cache-Control", "max-age=0", "Content-Type", "application/json"),
                "{}".getBytes(), NOW, NOW, List.of());
        StoredAnswer b = a.refreshedBy(Headers.of("Cache-Control", "max-age=30", "Content-Length", "0"), NOW + 5_000, NOW + 5_000);
        assertEquals("max-age=30", b.headers().first("Cache-Control"));
        assertEquals("application/json", b.headers().first("Content-Type"));
        assertEquals("\"v1\"", b.headers().first("ETag"));
        assertTrue(b.fresh(NOW + 6_000, Duration.ZERO));
        assertEquals(2, b.body().length);
    }

    @Test
    void a304KeepsTheFieldsOfTheStoredBytes() {
        StoredAnswer a = new StoredAnswer(200, Headers.of("ETag", "\"v1\"", "Content-Encoding", "gzip", "Content-MD5", "a==",
                "Content-Range", "bytes 0-1/2", "X-Test", "a"), "{}".getBytes(), NOW, NOW, List.of());
        StoredAnswer b = a.refreshedBy(Headers.of("Content-Encoding", "identity", "Content-MD5", "b==", "Content-Range", "bytes 0-0/9",
                "X-Test", "b"), NOW + 5_000, NOW + 5_000);
        assertEquals("gzip", b.headers().first("Content-Encoding"), "the stored body is still gzip");
        assertEquals("a==", b.headers().first("Content-MD5"));
        assertEquals("bytes 0-1/2", b.headers().first("Content-Range"));
        assertEquals("b", b.headers().first("X-Test"), "any other field is the 304's");
    }

    @Test
    void a304UpdatesOnlyTheAnswerItsEntityTagNames() {
        StoredAnswer a = new StoredAnswer(200, Headers.of("ETag", "\"abc\""), new byte[0], NOW, NOW, List.of());
        assertTrue(a.selectedBy(Headers.of("ETag", "\"abc\"")));
        assertTrue(a.selectedBy(Headers.of("ETag", "W/\"abc\"")), "compared weakly");
        assertTrue(a.selectedBy(Headers.EMPTY), "a 304 without a validator updates the one it answers");
        assertFalse(a.selectedBy(Headers.of("ETag", "\"def\"")), "RFC 9111 4.3.4: another representation's 304 updates nothing");
        assertFalse(new StoredAnswer(200, Headers.EMPTY, new byte[0], NOW, NOW, List.of()).selectedBy(Headers.of("ETag", "\"abc\"")));
    }

    @Test
    void aWindowOfZeroHoldsNothingNotEvenWhatWentStaleThisMillisecond() {
        assertFalse(CachePolicy.within(Duration.ZERO, Duration.ZERO), "no staleWhileRevalidate, so no stale answer served");
        assertTrue(CachePolicy.within(Duration.ZERO, Duration.ofSeconds(1)));
        assertTrue(CachePolicy.within(Duration.ofSeconds(1), Duration.ofSeconds(1)));
        assertFalse(CachePolicy.within(Duration.ofMillis(1001), Duration.ofSeconds(1)));
    }
}
