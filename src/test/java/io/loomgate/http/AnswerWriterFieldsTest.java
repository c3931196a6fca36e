package io.loomgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import org.junit.jupiter.api.Test;

/**
 * The fields an answer goes out with: a proxied answer's own, then the route's, each name's lines
 * together; a field a head cannot carry is left out, whether the set it came in was checked as a
 * whole or not.
 */
class AnswerWriterFieldsTest {

    private static final Response.Writer NOTHING = new Response.Writer() {
        @Override
        public void writeTo(OutputStream out) {
        }

        @Override
        public void discard() {
        }
    };

    private static Response proxied(Headers passed, Headers own) {
        Response r = Response.streamed(200, new Response.Stream(passed, -1, NOTHING));
        return new Response(r.status(), r.contentType(), r.body(), own, r.stream());
    }

    @Test
    void aWellFormedAnswerGoesOutAsItCameWithTheRoutesFieldsAfterIt() {
        Headers passed = Headers.of("Content-Type", "text/plain", "Set-Cookie", "a=1", "X-Up", "1", "set-cookie", "b=2");
        Headers own = Headers.of("X-Request-Id", "r1", "Cache-Status", "loomgate; miss", "x-request-id", "r2");
        assertTrue(passed.wellFormed() && own.wellFormed());
        Headers out = AnswerWriter.fields(proxied(passed, own));
        assertEquals(Headers.of("Content-Type", "text/plain", "Set-Cookie", "a=1", "X-Up", "1", "set-cookie", "b=2",
                "X-Request-Id", "r1", "X-Request-Id", "r2", "Cache-Status", "loomgate; miss"), out);
        assertTrue(out.wellFormed());
    }

    @Test
    void aRouteFieldReplacesTheUpstreamsOfTheSameName() {
        Headers out = AnswerWriter.fields(proxied(Headers.of("Vary", "Accept", "X-Up", "1"), Headers.of("vary", "Origin")));
        assertEquals(Headers.of("X-Up", "1", "vary", "Origin"), out);
    }

    @Test
    void aFieldNoHeadMayCarryIsLeftOutAndTheRestGoes() {
        Headers passed = Headers.of("X-Up", "1", "X-Split", "a\r\nInjected: yes", "Bad Name", "v", "X-Two", "2");
        Headers own = Headers.of("X-Request-Id", "r1", "X-Route", "nul\u0000", "X-Route-Ok", "ok");
        Headers out = AnswerWriter.fields(proxied(passed, own));
        assertEquals(Headers.of("X-Up", "1", "X-Two", "2", "X-Request-Id", "r1", "X-Route-Ok", "ok"), out);
        assertTrue(out.wellFormed());
    }

    @Test
    void aBufferedAnswerGetsItsContentTypeUnlessItNamesOne() {
        Response plain = new Response(200, "application/json", new byte[0], Headers.of("X-A", "1"));
        assertEquals(Headers.of("Content-Type", "application/json", "X-A", "1"), AnswerWriter.fields(plain));
        Response named = new Response(200, "application/json", new byte[0], Headers.of("content-type", "text/csv"));
        assertEquals(Headers.of("content-type", "text/csv"), AnswerWriter.fields(named));
    }
}
