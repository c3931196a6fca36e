package io.loomgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The latency distribution: parsing, printing and drawing, without clocks. */
class LatencyTest {

    private static final Duration MAX = Duration.ofSeconds(60);

    @Test
    void aPlainDurationHasNoTail() {
        Latency l = Latency.parse("300ms", MAX);
        assertFalse(l.hasTail());
        assertEquals(Duration.ofMillis(300), l.draw(0.0));
        assertEquals(Duration.ofMillis(300), l.draw(0.999));
        assertEquals("300ms", l.format());
    }

    @Test
    void theTailTakesTheShareAboveItsPercentile() {
        Latency l = Latency.parse("10ms,p99.9=2s", MAX);
        assertEquals(0.001, l.tailShare(), 1e-12);
        assertEquals(Duration.ofSeconds(2), l.draw(0.0009));
        assertEquals(Duration.ofMillis(10), l.draw(0.001));
        assertEquals(Duration.ofMillis(10), l.draw(0.5));
        assertEquals("10ms,p99.9=2s", l.format());
        assertEquals(l, Latency.parse(l.format(), MAX));
    }

    @Test
    void malformedTailsAreRefusedWithWhatIsAccepted() {
        for (String bad : new String[] {"10ms,p99", "10ms,x=1s", "10ms,p100=1s", "10ms,p0=1s", "10ms,p99=2m",
                "10ms,p99=1s,p99.9=2s", "fast"}) {
            var e = assertThrows(IllegalArgumentException.class, () -> Latency.parse(bad, MAX), bad);
            assertTrue(e.getMessage().contains("such as"), bad + ": " + e.getMessage());
        }
    }

    @Test
    void onlyPercentileNamesAreTails() {
        assertTrue(Latency.isTailName("p99"));
        assertTrue(Latency.isTailName("p99.95"));
        assertFalse(Latency.isTailName("p"));
        assertFalse(Latency.isTailName("api"));
        assertFalse(Latency.isTailName("p100"));
    }
}
