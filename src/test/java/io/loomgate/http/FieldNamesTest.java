package io.loomgate.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A fixed set of header names, asked in any case; a name of another length or spelling is not in it. */
class FieldNamesTest {

    private final FieldNames hop = FieldNames.of("connection", "keep-alive", "te", "trailer", "trailers");

    @Test
    void aNameIsFoundInAnyCase() {
        assertTrue(hop.contains("connection"));
        assertTrue(hop.contains("Keep-Alive"));
        assertTrue(hop.contains("TE"));
        assertTrue(hop.contains("Trailers"));
    }

    @Test
    void aNameOfTheSameLengthOrAPrefixIsNotFound() {
        assertFalse(hop.contains("keep_alive"), "same length, one character apart");
        assertFalse(hop.contains("trailerz"));
        assertFalse(hop.contains("t"));
        assertFalse(hop.contains(""));
        assertFalse(hop.contains("connection-x"), "longer than any name held");
    }

    @Test
    void namesBeyondAsciiAreRefusedWhenTheSetIsMade() {
        assertThrows(IllegalArgumentException.class, () -> FieldNames.of("caf\u00e9"));
        assertThrows(IllegalArgumentException.class, () -> FieldNames.of(""));
    }
}
