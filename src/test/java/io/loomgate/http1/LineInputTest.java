package io.loomgate.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Lines read however the bytes arrive: in one piece, a byte at a time, or split anywhere. */
class LineInputTest {

    /** A source that hands out at most {@code step} bytes a read, as a socket may. */
    private static LineInput of(String text, int step) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        return new LineInput(Buffers.SIZE) {
            private int at;

            @Override
            protected int fill(byte[] b, int off, int len) {
                if (at == bytes.length) {
                    return -1;
                }
                int n = Math.min(Math.min(len, step), bytes.length - at);
                System.arraycopy(bytes, at, b, off, n);
                at += n;
                return n;
            }
        };
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 7, 100, 8192})
    void linesComeWholeHoweverTheBytesArrive(int step) throws IOException {
        String longValue = "v".repeat(5_000);
        LineInput in = of("GET / HTTP/1.1\r\nHost: x\nX-Long: " + longValue + "\r\n\r\nnext", step);
        assertTrue(in.awaitByte());
        assertEquals("GET / HTTP/1.1", in.readLine(8192, 414));
        assertEquals("Host: x", in.readLine(8192, 431), "a bare LF ends a line too");
        assertEquals("X-Long: " + longValue, in.readLine(16_384, 431));
        assertEquals("", in.readLine(8192, 431));
        byte[] rest = new byte[4];
        for (int n = 0; n < 4; ) {
            n += in.read(rest, n, 4 - n);
        }
        assertEquals("next", new String(rest, StandardCharsets.ISO_8859_1), "the bytes after the head stay for the body");
        assertNull(in.readLine(8192, 400), "the source ended before another line");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192})
    void aLineTooLongABareCrOrAnEndMidLineIsRefused(int step) {
        Http1Exception tooLong = assertThrows(Http1Exception.class, () -> of("x".repeat(9_000) + "\r\n", step).readLine(8192, 414));
        assertEquals(414, tooLong.status());
        assertThrows(Http1Exception.class, () -> of("a\rb\r\n", step).readLine(8192, 400));
        assertThrows(EOFException.class, () -> of("no line end", step).readLine(8192, 400));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8192})
    void anEmptySourceEndsWithoutALine(int step) throws IOException {
        assertFalse(of("", step).awaitByte());
        assertNull(of("", step).readLine(8192, 400));
    }

    @Test
    void aSmallHeadIsTakenInTheOneReadThatWaitedForIt() throws IOException {
        String head = "GET /api/data HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";
        int[] fills = {0};
        byte[] bytes = head.getBytes(StandardCharsets.ISO_8859_1);
        LineInput in = new LineInput(Buffers.SIZE) {
            private int at;

            @Override
            protected int fill(byte[] b, int off, int len) {
                fills[0]++;
                if (at == bytes.length) {
                    return -1;
                }
                int n = Math.min(len, bytes.length - at);
                System.arraycopy(bytes, at, b, off, n);
                at += n;
                return n;
            }
        };
        assertTrue(in.awaitByte());
        assertEquals(bytes.length, in.buffered(), "the wait read the whole head, not one byte of it");
        assertEquals("GET /api/data HTTP/1.1", in.readLine(8192, 414));
        assertEquals("Host: 127.0.0.1:8080", in.readLine(8192, 431));
        assertEquals("", in.readLine(8192, 431));
        assertEquals(1, fills[0], "one read for the whole request, as nginx makes");
    }
}
