package io.loomgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A token is RFC 9110's tchar, one by one, and nothing else. */
class FieldTextTest {

    /** RFC 9110 section 5.6.2, written out as the RFC lists it. */
    private static boolean tchar(char c) {
        return "!#$%&'*+-.^_`|~".indexOf(c) >= 0 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z');
    }

    @Test
    void everyCharacterIsATokenExactlyWhenTheRfcSaysSo() {
        for (char c = 0; c < 0x300; c++) {
            String one = String.valueOf(c);
            assertEquals(tchar(c), FieldText.isToken(one), "U+" + Integer.toHexString(c));
            assertEquals(tchar(c), FieldText.isToken("X-" + one + "-y"), "inside a name: U+" + Integer.toHexString(c));
        }
    }

    @Test
    void anEmptyNameIsNoToken() {
        assertFalse(FieldText.isToken(""));
        assertTrue(FieldText.isToken("Content-Type"));
    }
}
