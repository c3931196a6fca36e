package io.loomgate.http2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Frames written and read back, and each malformed frame refused with the error RFC 9113 names. */
class FrameCodecTest {

    @Test
    void everyKindOfFrameRoundTrips() throws Exception {
        List<Frame> frames = List.of(
                new Frame.Settings(false, List.of(new Frame.Setting(Frame.Setting.MAX_CONCURRENT_STREAMS, 100),
                        new Frame.Setting(Frame.Setting.INITIAL_WINDOW_SIZE, 65_535))),
                new Frame.Settings(true, List.of()),
                new Frame.Ping(false, 0x0102030405060708L),
                new Frame.WindowUpdate(0, 1 << 30),
                new Frame.RstStream(3, ErrorCode.CANCEL),
                new Frame.Priority(5, 3, true, 256));
        for (Frame f : frames) {
            assertEquals(f, read(FrameWriter.encode(f)), f.toString());
        }
        Frame.GoAway away = (Frame.GoAway) read(FrameWriter.encode(new Frame.GoAway(7, ErrorCode.ENHANCE_YOUR_CALM, "too many resets".getBytes())));
        assertEquals(7, away.lastStreamId());
        assertEquals(ErrorCode.ENHANCE_YOUR_CALM, away.code());
        assertArrayEquals("too many resets".getBytes(), away.debug());
        Frame.Data data = (Frame.Data) read(FrameWriter.encode(new Frame.Data(1, "hello".getBytes(), true, 5)));
        assertArrayEquals("hello".getBytes(), data.data());
        assertTrue(data.endStream());
        Frame.Headers headers = (Frame.Headers) read(FrameWriter.encode(new Frame.Headers(1, new byte[] {(byte) 0x82}, false, true, null)));
        assertArrayEquals(new byte[] {(byte) 0x82}, headers.block());
        assertTrue(headers.endHeaders());
        Frame.Continuation c = (Frame.Continuation) read(FrameWriter.encode(new Frame.Continuation(1, new byte[] {1, 2}, true)));
        assertArrayEquals(new byte[] {1, 2}, c.block());
    }

    @Test
    void paddingIsTakenOffAndCountedForFlowControl() throws Exception {
        // DATA, PADDED|END_STREAM, stream 1: pad length 3, "hi", 3 octets of padding
        Frame.Data d = (Frame.Data) read(hex("000006" + "00" + "09" + "00000001" + "03" + "6869" + "000000"));
        assertArrayEquals("hi".getBytes(), d.data());
        assertEquals(6, d.flowLength());
        // HEADERS, PADDED|PRIORITY|END_HEADERS, stream 3: pad 1, exclusive dependency on 1, weight 16, block 82, pad
        Frame.Headers h = (Frame.Headers) read(hex("000008" + "01" + "2c" + "00000003" + "01" + "80000001" + "0f" + "82" + "00"));
        assertArrayEquals(new byte[] {(byte) 0x82}, h.block());
        assertEquals(new Frame.Priority(3, 1, true, 16), h.priority());
    }

    @Test
    void framesOnTheWrongStreamAreConnectionErrors() {
        connectionError(ErrorCode.PROTOCOL_ERROR, "000001" + "00" + "00" + "00000000" + "00");          // DATA on 0
        connectionError(ErrorCode.PROTOCOL_ERROR, "000001" + "01" + "04" + "00000000" + "82");          // HEADERS on 0
        connectionError(ErrorCode.PROTOCOL_ERROR, "000004" + "03" + "00" + "00000000" + "00000008");    // RST_STREAM on 0
        connectionError(ErrorCode.PROTOCOL_ERROR, "000000" + "04" + "00" + "00000001");                 // SETTINGS on 1
        connectionError(ErrorCode.PROTOCOL_ERROR, "000008" + "06" + "00" + "00000001" + "0000000000000000"); // PING on 1
        connectionError(ErrorCode.PROTOCOL_ERROR, "000008" + "07" + "00" + "00000001" + "0000000000000000"); // GOAWAY on 1
        connectionError(ErrorCode.PROTOCOL_ERROR, "000001" + "09" + "04" + "00000000" + "82");          // CONTINUATION on 0
    }

    @Test
    void wrongLengthsAreFrameSizeErrors() {
        connectionError(ErrorCode.FRAME_SIZE_ERROR, "000007" + "06" + "00" + "00000000" + "00000000000000");   // PING of 7
        connectionError(ErrorCode.FRAME_SIZE_ERROR, "000003" + "03" + "00" + "00000001" + "000008");           // RST_STREAM of 3
        connectionError(ErrorCode.FRAME_SIZE_ERROR, "000005" + "08" + "00" + "00000000" + "0000000100");       // WINDOW_UPDATE of 5
        connectionError(ErrorCode.FRAME_SIZE_ERROR, "000005" + "04" + "00" + "00000000" + "0003000000");       // SETTINGS of 5
        connectionError(ErrorCode.FRAME_SIZE_ERROR, "000006" + "04" + "01" + "00000000" + "000300000064");     // an ACK with values
        connectionError(ErrorCode.FRAME_SIZE_ERROR, "000004" + "07" + "00" + "00000000" + "00000000");         // GOAWAY of 4
        Http2Exception e = assertThrows(Http2Exception.class, () -> read(hex("000004" + "02" + "00" + "00000003" + "00000001")));
        assertEquals(ErrorCode.FRAME_SIZE_ERROR, e.code());
        assertEquals(3, e.streamId(), "a PRIORITY of the wrong length is the stream's error only");
    }

    @Test
    void aFramePastTheMaximumIsRefusedBeforeItsPayloadIsRead() {
        // a header announcing 16,385 octets, and no payload at all: refused on the header alone
        connectionError(ErrorCode.FRAME_SIZE_ERROR, "004001" + "00" + "00" + "00000001");
    }

    @Test
    void paddingLongerThanThePayloadIsAProtocolError() {
        connectionError(ErrorCode.PROTOCOL_ERROR, "000003" + "00" + "08" + "00000001" + "05" + "6869");
        connectionError(ErrorCode.FRAME_SIZE_ERROR, "000000" + "00" + "08" + "00000001");
    }

    @Test
    void settingsOutOfRangeAreRefused() {
        connectionError(ErrorCode.PROTOCOL_ERROR, "000006" + "04" + "00" + "00000000" + "000200000002");       // ENABLE_PUSH 2
        connectionError(ErrorCode.FLOW_CONTROL_ERROR, "000006" + "04" + "00" + "00000000" + "000480000000");   // window 2^31
        connectionError(ErrorCode.PROTOCOL_ERROR, "000006" + "04" + "00" + "00000000" + "000500003fff");       // frame size 16,383
    }

    @Test
    void aZeroWindowUpdateIsTheStreamsOrTheConnectionsError() throws Exception {
        connectionError(ErrorCode.PROTOCOL_ERROR, "000004" + "08" + "00" + "00000000" + "00000000");
        Http2Exception e = assertThrows(Http2Exception.class, () -> read(hex("000004" + "08" + "00" + "00000005" + "00000000")));
        assertEquals(5, e.streamId());
        Http2Exception self = assertThrows(Http2Exception.class, () -> read(hex("000005" + "02" + "00" + "00000005" + "0000000510")));
        assertEquals(ErrorCode.PROTOCOL_ERROR, self.code());
        assertEquals(5, self.streamId(), "a stream that depends on itself");
    }

    @Test
    void unknownTypesAndSettingsAreKeptAsIgnorableAndTheReservedBitIsDropped() throws Exception {
        assertEquals(new Frame.Unknown(0xfa, 1), read(hex("000002" + "fa" + "ff" + "80000001" + "abcd")));
        Frame.Settings s = (Frame.Settings) read(hex("000006" + "04" + "00" + "00000000" + "00ff00000001"));
        assertEquals(List.of(new Frame.Setting(0xff, 1)), s.values());
    }

    @Test
    void theEndOfTheStreamBetweenFramesIsNullAndInsideOneAnError() throws Exception {
        assertNull(read(new byte[0]));
        assertInstanceOf(EOFException.class, assertThrows(EOFException.class, () -> read(hex("000004"))));
        assertThrows(EOFException.class, () -> read(hex("000004" + "08" + "00" + "00000000" + "0000")));
    }

    private static void connectionError(ErrorCode code, String hex) {
        Http2Exception e = assertThrows(Http2Exception.class, () -> read(hex(hex)), hex);
        assertEquals(code, e.code(), hex + ": " + e.getMessage());
        assertTrue(e.connectionError(), hex + ": a connection error");
    }

    private static Frame read(byte[] bytes) throws Exception {
        return new FrameReader(new ByteArrayInputStream(bytes)).read();
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }
}
