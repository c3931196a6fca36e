package io.loomgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Lookups by name: any case finds a name that is there, and a name that is not finds nothing. */
class HeadersTest {

    private static final List<String> NAMES = List.of("Content-Type", "content-length", "X-Request-Id", "Vary",
            "ETag", "A", "x", "Set-Cookie", "Cache-Control", "Transfer-Encoding", "Location", "ab", "Ab-");

    @Test
    void everyNameHeldIsFoundInAnyCaseAndEveryOtherIsNot() {
        Headers.Builder b = Headers.builder();
        NAMES.forEach(n -> b.add(n, "v-" + n));
        Headers h = b.build();
        for (String n : NAMES) {
            for (String asked : List.of(n, n.toLowerCase(Locale.ROOT), n.toUpperCase(Locale.ROOT))) {
                assertEquals("v-" + n, h.first(asked), asked);
                assertEquals(List.of("v-" + n), h.all(asked), asked);
                assertTrue(h.contains(asked), asked);
            }
        }
        // Names that share a length or a first letter with one held, and names that share neither.
        for (String absent : List.of("Content-Tipe", "Xontent-Type", "B", "y", "Link", "Age", "Refresh",
                "Content-Location", "Etag2", "aC-", "ac", "")) {
            assertNull(h.first(absent), absent);
            assertEquals(List.of(), h.all(absent), absent);
            assertFalse(h.contains(absent), absent);
        }
    }

    @Test
    void namesBeyondAsciiCompareAsEqualsIgnoreCaseDoes() {
        // U+212A KELVIN SIGN is equalsIgnoreCase to 'k' and 'K'; such a name is never ruled out early.
        Headers kelvin = Headers.of("\u212Aeep", "1");
        assertEquals("1", kelvin.first("keep"));
        assertEquals("1", kelvin.first("KEEP"));
        Headers plain = Headers.of("Keep", "2");
        assertEquals("2", plain.first("\u212Aeep"));
        assertEquals(List.of("2"), plain.all("\u212AEEP"));
    }

    @Test
    void fieldsMadeByWithPlusAndWithoutAreLookedUpAsBuilt() {
        Headers h = Headers.of("Vary", "Accept").plus("Location", "/a").with("Vary", "Origin")
                .plus(Headers.of("Refresh", "0"));
        assertEquals("Origin", h.first("vary"));
        assertEquals("/a", h.first("location"));
        assertEquals("0", h.first("REFRESH"));
        Headers less = h.without("location"::equals);
        assertNull(less.first("Location"));
        assertEquals("Origin", less.first("Vary"));
        assertNull(Headers.EMPTY.first("Vary"));
    }

    @Test
    void eachNameIsListedOnceAsFirstSpeltInOrder() {
        Headers h = Headers.of("Vary", "Origin", "set-cookie", "a=1", "X-Id", "7", "Set-Cookie", "b=2", "VARY", "Accept");
        assertEquals(List.of("Vary", "set-cookie", "X-Id"), h.distinctNames());
        assertEquals(List.copyOf(h.names()), h.distinctNames());
        assertEquals(List.of("a=1", "b=2"), h.all("Set-Cookie"));
        assertEquals(List.of(), Headers.EMPTY.distinctNames());
    }
}
