package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.loomgate.http.Headers;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** An answer's head: each name's words capitalised, a name already so kept as it is, what ISO-8859-1 cannot say as {@code ?}. */
class ResponsesTest {

    @Test
    void eachWordOfANameIsCapitalisedAndACanonicalNameIsNotCopied() {
        for (String[] c : new String[][] {{"content-type", "Content-Type"}, {"Content-type", "Content-Type"},
                {"x-request-id", "X-Request-Id"}, {"-odd--name-", "-Odd--Name-"}, {"1a-b", "1a-B"}, {"", ""}}) {
            assertEquals(c[1], Responses.canonical(c[0]), c[0]);
        }
        String canonical = "X-Request-Id";
        assertSame(canonical, Responses.canonical(canonical));
        assertSame("ETAG", Responses.canonical("ETAG"));
    }

    @Test
    void theHeadCarriesTheFieldsCanonicalAndACharacterBeyondLatin1AsAQuestionMark() {
        byte[] head = Responses.head(200, Headers.of("content-type", "text/plain", "X-Odd", "a\u010ab", "Date", "Sun, 29 Nov 2026 00:00:00 GMT"),
                new String[] {"Content-Length", "2"}, null);
        assertEquals("HTTP/1.1 200 OK\r\nDate: Sun, 29 Nov 2026 00:00:00 GMT\r\nContent-Type: text/plain\r\nX-Odd: a?b\r\nContent-Length: 2\r\n\r\n",
                new String(head, StandardCharsets.ISO_8859_1));
    }
}
