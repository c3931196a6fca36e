package io.loomgate.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.loomgate.http2.hpack.HeaderField;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A request's header block checked as RFC 9113 section 8.2 and 8.3 require; each breach is the stream's PROTOCOL_ERROR. */
class RequestFieldsTest {

    @Test
    void aRequestsPseudoHeadersAndFieldsAreReadInOrder() throws Exception {
        RequestFields r = RequestFields.of(List.of(f(":method", "GET"), f(":scheme", "https"), f(":authority", "example.com"),
                f(":path", "/a?b=1"), f("accept", "*/*"), f("te", "trailers"), f("x-id", "")), 1);
        assertEquals("GET", r.method());
        assertEquals("https", r.scheme());
        assertEquals("example.com", r.authority());
        assertEquals("/a?b=1", r.path());
        assertEquals(List.of(f("accept", "*/*"), f("te", "trailers"), f("x-id", "")), r.fields());
        RequestFields connect = RequestFields.of(List.of(f(":method", "CONNECT"), f(":authority", "example.com:443")), 3);
        assertNull(connect.path());
        assertEquals("*", RequestFields.of(List.of(f(":method", "OPTIONS"), f(":scheme", "http"), f(":path", "*")), 5).path());
    }

    @Test
    void malformedRequestsAreTheStreamsProtocolError() {
        List<HeaderField> ok = List.of(f(":method", "GET"), f(":scheme", "http"), f(":path", "/"));
        malformed(List.of(f(":scheme", "http"), f(":path", "/")), "no :method");
        malformed(List.of(f(":method", "GET"), f(":path", "/")), "no :scheme");
        malformed(List.of(f(":method", "GET"), f(":scheme", "http")), "no :path");
        malformed(List.of(f(":method", "GET"), f(":scheme", "http"), f(":path", "")), "an empty :path");
        malformed(List.of(f(":method", "GET"), f(":scheme", "http"), f(":path", "a")), "a relative :path");
        malformed(List.of(f(":method", "GET"), f(":scheme", "http"), f(":path", "*")), "* for GET");
        malformed(with(ok, f(":method", "POST")), "a second :method");
        malformed(with(ok, f(":status", "200")), "a response's pseudo-header");
        malformed(List.of(f(":method", "GET"), f("accept", "*/*"), f(":scheme", "http"), f(":path", "/")), "a pseudo-header after a field");
        malformed(with(ok, f("Accept", "*/*")), "an upper-case name");
        malformed(with(ok, f("bad name", "x")), "a name that is not a token");
        malformed(with(ok, f("x-a", "a\r\nx-b: b")), "a value with CR LF");
        malformed(with(ok, f("x-a", "a\0b")), "a value with NUL");
        malformed(with(ok, f("x-a", " padded")), "a value with a leading space");
        malformed(with(ok, f("connection", "keep-alive")), "connection");
        malformed(with(ok, f("transfer-encoding", "chunked")), "transfer-encoding");
        malformed(with(ok, f("upgrade", "websocket")), "upgrade");
        malformed(with(ok, f("te", "gzip")), "te other than trailers");
        malformed(List.of(f(":method", "CONNECT"), f(":authority", "a:1"), f(":path", "/")), "a CONNECT with :path");
    }

    private static void malformed(List<HeaderField> block, String why) {
        Http2Exception e = assertThrows(Http2Exception.class, () -> RequestFields.of(block, 7), why);
        assertEquals(ErrorCode.PROTOCOL_ERROR, e.code(), why);
        assertEquals(7, e.streamId(), why);
        assertFalse(e.connectionError(), why);
    }

    private static List<HeaderField> with(List<HeaderField> base, HeaderField extra) {
        List<HeaderField> all = new ArrayList<>(base);
        all.add(extra);
        return all;
    }

    private static HeaderField f(String name, String value) {
        return new HeaderField(name, value);
    }
}
