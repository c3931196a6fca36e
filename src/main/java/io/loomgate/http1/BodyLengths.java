package io.loomgate.http1;

import java.util.List;

/**
 * The framing numbers of a body, read one way for requests and answers: a {@code Content-Length}
 * and a chunk size. A length is decimal digits only, at most 18 of them (below 2^63), and every
 * {@code Content-Length} of a message must say the same; a chunk size is hex digits only, at most 15
 * of them, optionally followed by extensions. Anything else is a framing error, never a guess.
 */
public final class BodyLengths {

    private static final int MAX_LENGTH_DIGITS = 18;
    private static final int MAX_SIZE_DIGITS = 15;

    private BodyLengths() {
    }

    /** The length every {@code Content-Length} value says ({@code 5} and {@code 5, 5}, never {@code +5} or {@code 5, 6}). */
    public static long contentLength(List<String> values) throws Http1Exception {
        long length = -1;
        for (String value : values) {
            for (String element : value.split(",", -1)) {
                String digits = element.strip();
                if (digits.isEmpty() || digits.length() > MAX_LENGTH_DIGITS || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    throw new Http1Exception("Content-Length '" + FieldLines.shown(value) + "' is not a number of bytes");
                }
                long n = Long.parseLong(digits);
                if (length >= 0 && n != length) {
                    throw new Http1Exception("two different Content-Length values (" + length + ", " + n + ")");
                }
                length = n;
            }
        }
        return length;
    }

    /** The size a chunk-size line announces. */
    public static long chunkSize(String line) throws Http1Exception {
        int digits = 0;
        while (digits < line.length() && isHex(line.charAt(digits))) {
            digits++;
        }
        String rest = line.substring(digits).stripLeading();
        if (digits == 0 || digits > MAX_SIZE_DIGITS || !(rest.isEmpty() || rest.charAt(0) == ';')
                || rest.chars().anyMatch(c -> (c < 0x20 && c != '\t') || c == 0x7f)) {
            throw new Http1Exception("bad chunk size line '" + FieldLines.shown(line) + "'");
        }
        return Long.parseLong(line, 0, digits, 16);
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
