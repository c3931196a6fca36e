package io.loomgate.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The flood bounds, with time given: each a GOAWAY ENHANCE_YOUR_CALM that names its flood. */
class FloodGuardTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void settingsAndPingsShareABucketThatRefillsWithTime() throws Exception {
        FloodGuard g = new FloodGuard(0);
        for (int i = 0; i < FloodGuard.CONTROL_BURST; i++) {
            if (i % 2 == 0) {
                g.ping(0);
            } else {
                g.settings(0);
            }
        }
        Http2Exception e = assertThrows(Http2Exception.class, () -> g.ping(0));
        assertEquals(ErrorCode.ENHANCE_YOUR_CALM, e.code());
        assertEquals(Flood.PING, e.flood());
        g.settings(SECOND);   // a second later, CONTROL_PER_SECOND more
        for (int i = 1; i < FloodGuard.CONTROL_PER_SECOND; i++) {
            g.ping(SECOND);
        }
        assertEquals(Flood.SETTINGS, assertThrows(Http2Exception.class, () -> g.settings(SECOND)).flood());
    }

    @Test
    void priorityFramesAreAllowedAHundredAStreamOpened() throws Exception {
        FloodGuard g = new FloodGuard(0);
        for (int i = 0; i < FloodGuard.PRIORITY_PER_STREAM; i++) {
            g.priority(0);
        }
        assertEquals(Flood.PRIORITY, assertThrows(Http2Exception.class, () -> g.priority(0)).flood());
        FloodGuard opened = new FloodGuard(0);
        for (int i = 0; i < 3 * FloodGuard.PRIORITY_PER_STREAM; i++) {
            opened.priority(2);
        }
        assertThrows(Http2Exception.class, () -> opened.priority(2));
    }

    @Test
    void emptyDataFramesInARowAreAFloodUnlessOneCarriesSomethingOrEndsTheStream() throws Exception {
        FloodGuard g = new FloodGuard(0);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < FloodGuard.EMPTY_IN_A_ROW; i++) {
                g.data(0, false);
            }
            g.data(round == 1 ? 0 : 5, round == 1);   // a frame with octets, or one that ends its stream, starts the count again
        }
        for (int i = 0; i < FloodGuard.EMPTY_IN_A_ROW; i++) {
            g.data(0, false);
        }
        assertEquals(Flood.EMPTY_FRAMES, assertThrows(Http2Exception.class, () -> g.data(0, false)).flood());
    }

    @Test
    void windowUpdatesAreAllowedTenForEachDataFrameSentAndTwoForEachStream() throws Exception {
        FloodGuard g = new FloodGuard(0);
        for (int i = 0; i < FloodGuard.WINDOW_UPDATES_BASE; i++) {
            g.windowUpdate(0, 0);
        }
        assertEquals(Flood.WINDOW_UPDATE, assertThrows(Http2Exception.class, () -> g.windowUpdate(0, 0)).flood());
        FloodGuard reading = new FloodGuard(0);
        for (int i = 0; i < FloodGuard.WINDOW_UPDATES_BASE + 5 * FloodGuard.WINDOW_UPDATES_PER_DATA + 2 * 3; i++) {
            reading.windowUpdate(5, 3);   // a client opening its windows as three streams opened and five DATA frames arrived
        }
        assertThrows(Http2Exception.class, () -> reading.windowUpdate(5, 3));
    }
}
