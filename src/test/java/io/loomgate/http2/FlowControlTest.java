package io.loomgate.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Flow-control windows and settings as RFC 9113 sections 6.5 and 6.9 count them, without sockets. */
class FlowControlTest {

    @Test
    void dataBeyondTheWindowIsTheStreamsErrorOrTheConnections() throws Exception {
        FlowWindow stream = new FlowWindow(3, 10);
        stream.consume(10);
        Http2Exception e = assertThrows(Http2Exception.class, () -> stream.consume(1));
        assertEquals(ErrorCode.FLOW_CONTROL_ERROR, e.code());
        assertEquals(3, e.streamId());
        FlowWindow connection = new FlowWindow(0, 5);
        assertTrue(assertThrows(Http2Exception.class, () -> connection.consume(6)).connectionError());
    }

    @Test
    void aWindowUpdatePast2To31IsAFlowControlError() throws Exception {
        FlowWindow w = new FlowWindow(0, 65_535);
        w.increase(Integer.MAX_VALUE - 65_535);
        assertEquals(Integer.MAX_VALUE, w.available());
        Http2Exception e = assertThrows(Http2Exception.class, () -> w.increase(1));
        assertEquals(ErrorCode.FLOW_CONTROL_ERROR, e.code());
        assertTrue(e.connectionError());
    }

    @Test
    void aSmallerInitialWindowCanLeaveAStreamBelowZeroUntilUpdated() throws Exception {
        FlowWindow w = new FlowWindow(1, 65_535);
        w.consume(60_000);
        PeerSettings peer = new PeerSettings();
        long delta = peer.apply(new Frame.Settings(false, List.of(new Frame.Setting(Frame.Setting.INITIAL_WINDOW_SIZE, 1_000))));
        assertEquals(-64_535, delta);
        w.adjust(delta);
        assertEquals(-59_000, w.available());
        assertThrows(Http2Exception.class, () -> w.consume(1));
        w.increase(60_000);
        assertEquals(1_000, w.available());
    }

    @Test
    void settingsStartAtTheDefaultsAndTakeEachValueInOrder() {
        PeerSettings s = new PeerSettings();
        assertEquals(4_096, s.headerTableSize());
        assertTrue(s.enablePush());
        assertEquals(PeerSettings.UNLIMITED, s.maxConcurrentStreams());
        assertEquals(65_535, s.initialWindowSize());
        assertEquals(16_384, s.maxFrameSize());
        long delta = s.apply(new Frame.Settings(false, List.of(
                new Frame.Setting(Frame.Setting.ENABLE_PUSH, 0), new Frame.Setting(Frame.Setting.MAX_CONCURRENT_STREAMS, 100),
                new Frame.Setting(Frame.Setting.MAX_FRAME_SIZE, 32_768), new Frame.Setting(0x99, 7),
                new Frame.Setting(Frame.Setting.MAX_CONCURRENT_STREAMS, 50))));
        assertEquals(0, delta);
        assertFalse(s.enablePush());
        assertEquals(50, s.maxConcurrentStreams(), "the last value of a setting wins");
        assertEquals(32_768, s.maxFrameSize());
    }
}
