package io.loomgate.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A head's bytes put together in one array: the same bytes a string's ISO-8859-1 encoding gives. */
class HeadBytesTest {

    @Test
    void aHeadIsItsTextInIso88591AndGrowsPastItsFirstCapacity() throws Exception {
        String value = "x".repeat(300) + "\u00e9";   // obs-text: one byte
        HeadBytes h = new HeadBytes(16).append("GET /a HTTP/1.1").crlf().field("Host", "example.com")
                .append("Content-Length: ").append(1234567890123L).crlf().field("X-Long", value).crlf();
        String text = "GET /a HTTP/1.1\r\nHost: example.com\r\nContent-Length: 1234567890123\r\nX-Long: " + value + "\r\n\r\n";
        assertArrayEquals(text.getBytes(StandardCharsets.ISO_8859_1), h.toByteArray());
        assertEquals(text.length(), h.length());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        h.writeTo(out);
        assertArrayEquals(h.toByteArray(), out.toByteArray());
    }

    @Test
    void aCharacterBeyondLatin1IsAQuestionMarkAsStringGetBytesWritesIt() {
        String odd = "a\u20acb\u0100";
        assertArrayEquals(odd.getBytes(StandardCharsets.ISO_8859_1), new HeadBytes(4).append(odd).toByteArray());
        assertArrayEquals("?".getBytes(StandardCharsets.ISO_8859_1), new HeadBytes(1).append('\u2603').toByteArray());
    }

    @Test
    void aCanonicalNameHasEachWordCapitalised() {
        for (String[] c : new String[][] {{"content-type", "Content-Type"}, {"Content-type", "Content-Type"},
                {"x-request-id", "X-Request-Id"}, {"ETAG", "ETAG"}, {"-odd--name-", "-Odd--Name-"}, {"", ""}, {"1a-b", "1a-B"}}) {
            assertEquals(c[1], new String(new HeadBytes(2).appendCanonical(c[0]).toByteArray(), StandardCharsets.ISO_8859_1), c[0]);
        }
    }
}
