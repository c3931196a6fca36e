package io.loomgate.http;

import io.loomgate.config.Printable;
import java.nio.charset.StandardCharsets;

/**
 * The grammar of HTTP header fields (RFC 9110 section 5), in one place for every side that reads or
 * writes them: a name is a token; a value is visible characters, spaces and tabs, and obs-text
 * (bytes 0x80 to 0xFF), never a control character, so it cannot end its line.
 */
public final class FieldText {

    private static final String DELIMITERS = "()<>@,;:\\\"/[]?={} ";
    /** tchar (RFC 9110 section 5.6.2) as a bit per ASCII code: 0..63 in the first, 64..127 in the second. */
    private static final long[] TCHAR = tchars();

    private FieldText() {
    }

    /** A token (RFC 9110 section 5.6.2): what a header name must be. */
    public static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80 || (TCHAR[c >>> 6] & (1L << c)) == 0) {
                return false;
            }
        }
        return true;
    }

    private static long[] tchars() {
        long[] bits = new long[2];
        for (char c = 0x21; c < 0x7f; c++) {
            if (DELIMITERS.indexOf(c) < 0) {
                bits[c >>> 6] |= 1L << c;
            }
        }
        return bits;
    }

    /** A field line a head may carry: its name a token, its value a field value. */
    public static boolean isField(String name, String value) {
        return isToken(name) && isValue(value);
    }

    /** A field value: no control character but HTAB, nothing beyond one byte. */
    public static boolean isValue(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f || c > 0xff) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code s} as a header carries it: its UTF-8 bytes, one char per byte, so text beyond ASCII
     * reaches the wire as the UTF-8 a reader expects (obs-text, RFC 9110 section 5.5), never as
     * {@code ?}. Pure ASCII comes back as it is.
     */
    public static String wire(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
            }
        }
        return s;
    }

    /** {@code s} shortened and cut to printable ASCII, for a log line about a field that was refused. */
    public static String printable(String s) {
        return Printable.shorten(s, 64);
    }
}
