package io.loomgate.http1;

import io.loomgate.http.FieldText;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The field lines of a head, or of a chunked body's trailers, read as strictly as RFC 9112 allows,
 * for requests and answers alike: a name is a token ({@link FieldText}) with no white space before
 * its colon, a line never starts with white space (obsolete line folding), a value has no control
 * character, and everything stays within the message's {@link HeadLimits}.
 */
public final class FieldLines {

    /**
     * Where each field goes: its name as it came, and its value with the white space around it
     * trimmed. The sink checks the field against the grammar ({@link FieldText#isField}), as
     * {@link io.loomgate.http.Headers.Builder#addIfWellFormed} does, so that a field read here is
     * checked once and the fields built know it.
     */
    @FunctionalInterface
    public interface Sink {
        /** @return false when the field is not well formed: the read fails */
        boolean field(String name, String value);
    }

    /** A sink that takes nothing, for fields that are read and dropped, and checks each. */
    public static final Sink CHECKED_AND_DROPPED = FieldText::isField;

    private FieldLines() {
    }

    /** Reads field lines up to the empty line that ends them. */
    public static void read(LineInput in, HeadLimits limits, Sink sink) throws IOException {
        while (true) {
            String line = in.readLine(limits.maxLine(), 431);
            if (line == null) {
                throw new EOFException("the connection closed in the middle of the head");
            }
            limits.line(line.length() + 2);
            if (line.isEmpty()) {
                return;
            }
            limits.field();
            int colon = line.indexOf(':');
            char first = line.charAt(0);
            if (first == ' ' || first == '\t') {
                throw new Http1Exception("a header line starts with white space (obsolete line folding)");
            }
            if (colon <= 0) {
                throw new Http1Exception("a header line has no name and colon: '" + shown(line) + "'");
            }
            String name = line.substring(0, colon);
            String value = trimOws(line, colon + 1);
            if (!sink.field(name, value)) {
                throw malformed(name);
            }
        }
    }

    /** Why a field line the sink refused is not one. */
    private static Http1Exception malformed(String name) {
        if (!FieldText.isToken(name)) {
            return new Http1Exception("the header name '" + shown(name) + "' is not a token"
                    + (name.endsWith(" ") || name.endsWith("\t") ? " (white space before the colon)" : ""));
        }
        return new Http1Exception("the value of " + name + " holds a control character");
    }

    /** The comma-separated elements of {@code values}, trimmed and in lower case, empty ones left out. */
    public static List<String> tokens(List<String> values) {
        List<String> tokens = new ArrayList<>(2);
        for (String value : values) {
            for (String element : value.split(",")) {
                String t = element.strip();
                if (!t.isEmpty()) {
                    tokens.add(t.toLowerCase(Locale.ROOT));
                }
            }
        }
        return tokens;
    }

    private static String trimOws(String line, int from) {
        int start = from;
        int end = line.length();
        while (start < end && (line.charAt(start) == ' ' || line.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (line.charAt(end - 1) == ' ' || line.charAt(end - 1) == '\t')) {
            end--;
        }
        return line.substring(start, end);
    }

    /** Text from the wire in a message: short, and printable. */
    public static String shown(String s) {
        StringBuilder sb = new StringBuilder(Math.min(s.length(), 40));
        for (int i = 0; i < s.length() && sb.length() < 40; i++) {
            char c = s.charAt(i);
            sb.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return s.length() > 40 ? sb + "..." : sb.toString();
    }
}
