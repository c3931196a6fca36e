package io.loomgate.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Stream states as RFC 9113 section 5.1 has them, the concurrency limit and the rapid-reset guard; time is given, not read. */
class ServerStreamsTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aRequestOpensHalfClosesAndClosesWithTheAnswer() throws Exception {
        ServerStreams s = new ServerStreams(100, 10, 10, 0);
        s.headers(1, false);
        assertEquals(ServerStreams.State.OPEN, s.state(1));
        s.data(1, true);
        assertEquals(ServerStreams.State.HALF_CLOSED_REMOTE, s.state(1));
        s.endLocal(1);
        assertNull(s.state(1));
        s.headers(3, true);
        s.endLocal(3);
        assertEquals(0, s.active());
        assertEquals(3, s.lastOpened());
    }

    @Test
    void streamIdsMustBeOddAndIncreasing() throws Exception {
        ServerStreams s = new ServerStreams(100, 10, 10, 0);
        assertTrue(assertThrows(Http2Exception.class, () -> s.headers(2, false)).connectionError());
        s.headers(5, false);
        Http2Exception back = assertThrows(Http2Exception.class, () -> s.headers(3, false));
        assertEquals(ErrorCode.PROTOCOL_ERROR, back.code());
        assertTrue(back.connectionError());
    }

    @Test
    void framesOnAStreamNeverOpenedAreConnectionErrorsAndOnAClosedOneTheStreams() throws Exception {
        ServerStreams s = new ServerStreams(100, 10, 10, 0);
        assertTrue(assertThrows(Http2Exception.class, () -> s.data(1, false)).connectionError());
        assertTrue(assertThrows(Http2Exception.class, () -> s.windowUpdate(3)).connectionError());
        assertTrue(assertThrows(Http2Exception.class, () -> s.reset(5, 0)).connectionError());
        s.headers(7, true);
        Http2Exception afterEnd = assertThrows(Http2Exception.class, () -> s.data(7, false));
        assertEquals(ErrorCode.STREAM_CLOSED, afterEnd.code());
        assertEquals(7, afterEnd.streamId());
        s.endLocal(7);
        assertEquals(ErrorCode.STREAM_CLOSED, assertThrows(Http2Exception.class, () -> s.data(7, false)).code());
        s.windowUpdate(7);   // a closed stream's window update is harmless
    }

    @Test
    void trailersMustEndTheStream() throws Exception {
        ServerStreams s = new ServerStreams(100, 10, 10, 0);
        s.headers(1, false);
        assertEquals(ErrorCode.PROTOCOL_ERROR, assertThrows(Http2Exception.class, () -> s.headers(1, false)).code());
        s.headers(1, true);
        assertEquals(ServerStreams.State.HALF_CLOSED_REMOTE, s.state(1));
    }

    @Test
    void oneStreamPastTheLimitIsRefusedAndTheConnectionGoesOn() throws Exception {
        ServerStreams s = new ServerStreams(2, 10, 10, 0);
        s.headers(1, false);
        s.headers(3, false);
        Http2Exception refused = assertThrows(Http2Exception.class, () -> s.headers(5, false));
        assertEquals(ErrorCode.REFUSED_STREAM, refused.code());
        assertEquals(5, refused.streamId());
        s.endLocal(1);
        s.data(1, true);
        s.headers(7, false);
        assertEquals(2, s.active());
    }

    @Test
    void rapidResetsEndTheConnectionWithEnhanceYourCalm() throws Exception {
        ServerStreams s = new ServerStreams(100, 5, 1, 0);
        int id = 1;
        for (int i = 0; i < 5; i++, id += 2) {
            s.headers(id, false);
            assertTrue(s.reset(id, 0), "a burst of five is allowed");
        }
        s.headers(id, false);
        int next = id;
        Http2Exception calm = assertThrows(Http2Exception.class, () -> s.reset(next, 0));
        assertEquals(ErrorCode.ENHANCE_YOUR_CALM, calm.code());
        assertTrue(calm.connectionError());
    }

    @Test
    void resetsAtTheRefillRateAreAllowedForeverAndAResetOfAnAnsweredStreamCostsNothing() throws Exception {
        ServerStreams s = new ServerStreams(100, 2, 1, 0);
        int id = 1;
        for (int i = 0; i < 100; i++, id += 2) {
            s.headers(id, false);
            assertTrue(s.reset(id, i * SECOND));
        }
        s.headers(id, true);
        s.endLocal(id);
        for (int i = 0; i < 10; i++) {
            assertFalse(s.reset(id, 100 * SECOND), "closed already: not counted");
        }
        for (int i = 0; i < 10; i++) {
            id += 2;
            s.headers(id, false);
            s.endLocal(id);   // answered; the client's side still open
            assertFalse(s.reset(id, 100 * SECOND), "a reset after the answer ended is not counted");
        }
    }
}
