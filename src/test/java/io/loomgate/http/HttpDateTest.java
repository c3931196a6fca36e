package io.loomgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** HTTP-dates read strictly: the three forms RFC 9110 section 5.6.7 names, nothing else. */
class HttpDateTest {

    private static final long NOV_6_1994 = 784111777000L;   // Sun, 06 Nov 1994 08:49:37 GMT

    @Test
    void theThreeFormsAreTheSameInstant() {
        assertEquals(Optional.of(NOV_6_1994), HttpDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"));
        assertEquals(Optional.of(NOV_6_1994), HttpDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"));
        assertEquals(Optional.of(NOV_6_1994), HttpDate.parse("Sun Nov  6 08:49:37 1994"));
    }

    @Test
    void whatIsNotAnHttpDateIsNone() {
        for (String bad : List.of("Thu, 18 Aug 2050 2:01:18 GMT", "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 2050 02:01:18 +0000",
                "THU, 18 Aug 2050 02:01:18 GMT", "Thu, 18 AUG 2050 02:01:18 GMT", "Thu, 18 Aug 2050 02:01:18 gMT",
                "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT",
                "Thu, 18 Aug 2050 02.01.18 GMT", "Thu, 18 Aug 50 02:01:18 GMT", "Thu, 8 Aug 2050 02:01:18 GMT",
                "Thu, 31 Feb 2050 02:01:18 GMT", "0", "-1", "", " Thu, 18 Aug 2050 02:01:18 GMT")) {
            assertEquals(Optional.empty(), HttpDate.parse(bad), bad);
        }
        assertEquals(Optional.empty(), HttpDate.parse(null));
    }

    @Test
    void aFieldWithTwoLinesHasNoDate() {
        assertEquals(Optional.empty(), HttpDate.only(List.of("Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT")));
        assertEquals(Optional.of(NOV_6_1994), HttpDate.only(List.of("Sun, 06 Nov 1994 08:49:37 GMT")));
        assertTrue(HttpDate.only(List.of()).isEmpty());
    }

    @Test
    void itWritesTheImfFixdateTheJdksFormatterWritesAndReadsItBack() {
        java.time.format.DateTimeFormatter jdk = java.time.format.DateTimeFormatter
                .ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", java.util.Locale.US).withZone(java.time.ZoneOffset.UTC);
        assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", HttpDate.format(NOV_6_1994 / 1000));
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        List<Long> seconds = new java.util.ArrayList<>(List.of(0L, 951_782_400L, 4_107_542_399L, 253_402_300_799L));  // 1970, 29 Feb 2000, 2100, 9999
        for (int i = 0; i < 2_000; i++) {
            seconds.add(random.nextLong(0, 253_402_300_800L));
        }
        for (long s : seconds) {
            String written = HttpDate.format(s);
            assertEquals(jdk.format(java.time.Instant.ofEpochSecond(s)), written, "second " + s);
            assertEquals(Optional.of(s * 1000), HttpDate.parse(written), written);
        }
    }
}
