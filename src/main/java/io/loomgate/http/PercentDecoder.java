package io.loomgate.http;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict percent-decoding: {@code %XX} must have two hex digits, raw characters must be printable
 * ASCII, and the decoded bytes must be valid UTF-8 (overlong forms such as {@code %C0%AE} are refused).
 * Anything else is a 400 {@code bad_encoding}, never a silent repair.
 */
final class PercentDecoder {

    private PercentDecoder() {
    }

    /**
     * Decodes {@code raw}; when {@code plusIsSpace}, {@code +} means a space (query strings).
     *
     * @param part what is being decoded, for the error message ({@code "path"}, {@code "query"})
     */
    static String decode(String raw, boolean plusIsSpace, String part) {
        if (raw.indexOf('%') < 0 && (!plusIsSpace || raw.indexOf('+') < 0)) {
            requirePrintableAscii(raw, part);
            return raw;
        }
        ByteBuffer bytes = ByteBuffer.allocate(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 1 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 2), 16) : -1;
                if (hi < 0 || lo < 0) {
                    throw badEncoding(part, "a '%' must be followed by two hex digits");
                }
                bytes.put((byte) (hi << 4 | lo));
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                bytes.put((byte) ' ');
            } else if (c > 0x20 && c < 0x7f) {
                bytes.put((byte) c);
            } else {
                throw badEncoding(part, "raw characters must be printable ASCII; percent-encode the rest");
            }
        }
        bytes.flip();
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes);
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw badEncoding(part, "percent-encoded bytes must be valid UTF-8");
        }
    }

    private static void requirePrintableAscii(String raw, String part) {
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                throw badEncoding(part, "raw characters must be printable ASCII; percent-encode the rest");
            }
        }
    }

    private static HttpError badEncoding(String part, String why) {
        return HttpError.badRequest("bad_encoding", "the " + part + " is not validly encoded: " + why);
    }
}
