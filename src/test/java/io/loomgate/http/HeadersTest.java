package io.loomgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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
        assertEquals(List.of("Vary", "set-cookie", "X-Id"), h.names());
        assertEquals(List.of("a=1", "b=2"), h.all("Set-Cookie"));
        assertEquals(List.of(), Headers.EMPTY.names());
    }

    @Test
    void eachFieldIsCheckedWhenAddedAndTheSetKnowsWhetherAllPassed() {
        assertTrue(Headers.EMPTY.wellFormed());
        Headers good = Headers.of("Vary", "Origin", "X-Id", "caf\u00e9 \tok");
        assertTrue(good.wellFormed());
        for (String[] bad : new String[][] {{"X-A", "a\rb"}, {"X-A", "a\nb"}, {"X-A", "nul\u0000"}, {"X-A", "\u20ac"},
                {"Bad Name", "v"}, {"", "v"}, {"X:A", "v"}}) {
            assertFalse(Headers.of(bad[0], bad[1]).wellFormed(), bad[0] + ": " + bad[1]);
            assertFalse(good.plus(bad[0], bad[1]).wellFormed(), "plus " + bad[0]);
            assertFalse(good.plus(Headers.of(bad[0], bad[1])).wellFormed(), "plus all " + bad[0]);
            assertFalse(Headers.of(bad[0], bad[1]).plus("Vary", "Origin").wellFormed(), "a bad field stays bad");
            Headers.Builder b = Headers.builder();
            assertFalse(b.addIfWellFormed(bad[0], bad[1]), "refused: " + bad[0]);
            assertEquals(0, b.size(), "nothing added");
        }
        assertTrue(good.plus("Via", "1.1 loomgate").wellFormed());
        assertTrue(good.with("X-Id", "8").wellFormed());
    }

    @Test
    void fieldsCopiedFromAWellFormedSetNeedNoSecondCheckAndABadOneIsNeverTakenForGood() {
        Headers bad = Headers.of("Vary", "Origin", "X-Bad", "a\rb");
        // Leaving the bad field behind does not make the rest known good: the set was not, as a whole.
        Headers.Builder fromBad = Headers.builder().addAll(bad, n -> n.equals("Vary"));
        assertFalse(fromBad.build().wellFormed());
        assertFalse(bad.without(n -> n.equals("vary")).wellFormed());
        Headers good = Headers.of("Vary", "Origin", "X-Id", "7", "Set-Cookie", "a=1");
        Headers kept = Headers.builder().addAll(good, n -> !n.equals("X-Id")).build();
        assertEquals(Headers.of("Vary", "Origin", "Set-Cookie", "a=1"), kept);
        assertTrue(kept.wellFormed());
        assertTrue(good.without(n -> n.equals("x-id")).wellFormed());
        assertFalse(Headers.builder().addAll(good).add("X-A", "a\nb").build().wellFormed());
        Headers.Builder parsed = Headers.builder();
        assertTrue(parsed.addIfWellFormed("Host", "x"));
        assertTrue(parsed.build().wellFormed());
    }

    @Test
    void groupedListsEachNamesLinesTogetherUnderItsFirstSpelling() {
        Headers h = Headers.of("Vary", "Origin", "set-cookie", "a=1", "X-Id", "7", "Set-Cookie", "b=2", "VARY", "Accept");
        assertEquals(Headers.of("Vary", "Origin", "Vary", "Accept", "set-cookie", "a=1", "set-cookie", "b=2", "X-Id", "7"),
                h.grouped());
        assertTrue(h.grouped().wellFormed());
        Headers once = Headers.of("Vary", "Origin", "X-Id", "7");
        assertSame(once, once.grouped(), "no name twice: the same fields");
        assertFalse(Headers.of("A", "1", "a", "\r").grouped().wellFormed());
    }
}
