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
}
