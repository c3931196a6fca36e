package io.loomgate.http2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A header block joined from HEADERS and CONTINUATIONs, and the CONTINUATION flood stopped. */
class HeaderBlocksTest {

    @Test
    void aBlockInOneFrameOrSeveralComesOutWhole() throws Exception {
        HeaderBlocks blocks = new HeaderBlocks(1_000, 10);
        HeaderBlocks.Block one = blocks.headers(new Frame.Headers(1, new byte[] {1, 2}, true, true, null));
        assertArrayEquals(new byte[] {1, 2}, one.block());
        assertTrue(one.endStream());

        assertNull(blocks.headers(new Frame.Headers(3, new byte[] {1}, false, false, null)));
        assertTrue(blocks.open());
        assertNull(blocks.next(new Frame.Continuation(3, new byte[] {2}, false)));
        HeaderBlocks.Block joined = blocks.next(new Frame.Continuation(3, new byte[] {3}, true));
        assertEquals(3, joined.streamId());
        assertArrayEquals(new byte[] {1, 2, 3}, joined.block());
        assertNull(blocks.next(new Frame.Ping(false, 1)), "other frames pass once the block is closed");
    }

    @Test
    void anyOtherFrameInsideABlockIsAProtocolError() throws Exception {
        assertEquals(ErrorCode.PROTOCOL_ERROR, refusedAfterOpening(new Frame.Ping(false, 1)));
        assertEquals(ErrorCode.PROTOCOL_ERROR, refusedAfterOpening(new Frame.Continuation(5, new byte[0], true)));
        assertEquals(ErrorCode.PROTOCOL_ERROR, refusedAfterOpening(new Frame.Data(1, new byte[0], false, 0)));
        HeaderBlocks blocks = new HeaderBlocks(1_000, 10);
        assertThrows(Http2Exception.class, () -> blocks.next(new Frame.Continuation(1, new byte[0], true)), "no block open");
    }

    @Test
    void theContinuationFloodEndsTheConnectionWithEnhanceYourCalm() throws Exception {
        HeaderBlocks byFrames = new HeaderBlocks(1_000_000, 100);
        byFrames.headers(new Frame.Headers(1, new byte[0], false, false, null));
        Http2Exception tooMany = assertThrows(Http2Exception.class, () -> {
            for (int i = 0; i < 1_000_000; i++) {
                byFrames.next(new Frame.Continuation(1, new byte[0], false));   // empty frames, forever
            }
        });
        assertEquals(ErrorCode.ENHANCE_YOUR_CALM, tooMany.code());
        assertTrue(tooMany.connectionError());

        HeaderBlocks byOctets = new HeaderBlocks(16_384, 1_000);
        byOctets.headers(new Frame.Headers(1, new byte[16_000], false, false, null));
        Http2Exception tooBig = assertThrows(Http2Exception.class, () -> byOctets.next(new Frame.Continuation(1, new byte[1_000], false)));
        assertEquals(ErrorCode.ENHANCE_YOUR_CALM, tooBig.code());
    }

    private static ErrorCode refusedAfterOpening(Frame f) throws Exception {
        HeaderBlocks blocks = new HeaderBlocks(1_000, 10);
        blocks.headers(new Frame.Headers(1, new byte[] {1}, false, false, null));
        return assertThrows(Http2Exception.class, () -> blocks.next(f)).code();
    }
}
