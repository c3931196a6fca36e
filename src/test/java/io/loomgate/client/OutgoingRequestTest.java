package io.loomgate.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.loomgate.http.Headers;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The request head the client writes, and the fields it will not let anyone else write. */
final class OutgoingRequestTest {

    private static final Origin ORIGIN = Origin.of("http://127.0.0.1:8081");

    @ParameterizedTest
    @ValueSource(strings = {"Host", "host", "CONNECTION", "Content-Length", "content-LENGTH", "Transfer-Encoding", "TRANSFER-encoding"})
    void aFieldThatFramesTheStreamIsRefusedInAnyCase(String name) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OutgoingRequest.get(ORIGIN, "/", Headers.of(name, "1")));
        assertEquals("not a header that may be sent: " + name, e.getMessage());
    }

    @Test
    void namesThatOnlyLookLikeThemAreSentAsGiven() {
        OutgoingRequest request = OutgoingRequest.get(ORIGIN, "/a?b=1",
                Headers.of("X-Host", "h", "Content-Lengths", "2", "Hos", "3"));
        assertEquals("GET /a?b=1 HTTP/1.1\r\nHost: 127.0.0.1:8081\r\nX-Host: h\r\nContent-Lengths: 2\r\nHos: 3\r\n\r\n",
                new String(request.head(false), StandardCharsets.ISO_8859_1));
    }

    @Test
    void theClientWritesTheFramingItself() {
        OutgoingRequest post = new OutgoingRequest("POST", ORIGIN, "/p", Headers.of("Accept", "*/*"),
                new ByteArrayInputStream(new byte[3]), 3);
        assertEquals("POST /p HTTP/1.1\r\nHost: 127.0.0.1:8081\r\nAccept: */*\r\nConnection: close\r\nContent-Length: 3\r\n\r\n",
                new String(post.head(true), StandardCharsets.ISO_8859_1));
        OutgoingRequest chunked = new OutgoingRequest("PUT", ORIGIN, "/p", Headers.EMPTY, new ByteArrayInputStream(new byte[0]), -1);
        assertEquals("PUT /p HTTP/1.1\r\nHost: 127.0.0.1:8081\r\nTransfer-Encoding: chunked\r\n\r\n",
                new String(chunked.head(false), StandardCharsets.ISO_8859_1));
    }

    @Test
    void aCharacterIso88591CannotEncodeGoesAsAQuestionMarkNeverAsItsLowByte() {
        // U+010A's low byte is 0x0A, a line feed: sent as that byte it would end the request line early
        OutgoingRequest request = OutgoingRequest.get(ORIGIN, "/a\u010Ab", Headers.of("X-Dish", "cr\u00e8me"));
        assertEquals("GET /a?b HTTP/1.1\r\nHost: 127.0.0.1:8081\r\nX-Dish: cr\u00e8me\r\n\r\n",
                new String(request.head(false), StandardCharsets.ISO_8859_1));
    }
}
