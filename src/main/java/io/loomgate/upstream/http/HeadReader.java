package io.loomgate.upstream.http;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads an upstream's response head as strictly as RFC 9112 allows: a status line of exactly
 * {@code HTTP/1.x SP 3DIGIT [SP reason]} with a status from 100 to 599, header names that are
 * tokens with no white space before the colon, values without control characters, no obsolete
 * line folding, and everything within a {@link HeadBudget}. Interim answers (100, 102, 103) are
 * skipped; a {@code 101} is refused, since loomgate never asks to switch protocols. Anything else
 * is a {@link MalformedResponse}.
 */
final class HeadReader {

    /** The lines of a head, without their line ends; one at a time. */
    @FunctionalInterface
    interface Lines {
        String next() throws IOException;
    }

    private static final String TCHAR_SYMBOLS = "!#$%&'*+-.^_`|~";

    private HeadReader() {
    }

    /** The final head: interim ones are read and dropped. */
    static ResponseHead read(Lines lines, HeadBudget budget) throws IOException {
        while (true) {
            String statusLine = line(lines, budget);
            boolean http11 = version(statusLine);
            int status = status(statusLine);
            Map<String, List<String>> headers = new LinkedHashMap<>();
            fields(lines, budget, headers);
            if (status >= 200) {
                return new ResponseHead(status, http11, headers);
            }
            if (status == 101) {
                throw new MalformedResponse("101 Switching Protocols, though loomgate never asks for an upgrade");
            }
            budget.interim();
        }
    }

    /** Field lines up to the empty line that ends them: a head's headers, or a chunked body's trailers. */
    static void fields(Lines lines, HeadBudget budget, Map<String, List<String>> into) throws IOException {
        for (String line; !(line = line(lines, budget)).isEmpty(); ) {
            budget.field();
            int colon = line.indexOf(':');
            char first = line.charAt(0);
            if (first == ' ' || first == '\t') {
                throw new MalformedResponse("a header line starts with white space (obsolete line folding)");
            }
            if (colon <= 0) {
                throw new MalformedResponse("a header line has no name and colon: '" + shown(line) + "'");
            }
            String name = line.substring(0, colon);
            if (!isToken(name)) {
                throw new MalformedResponse("the header name '" + shown(name) + "' is not a token"
                        + (name.endsWith(" ") || name.endsWith("\t") ? " (white space before the colon)" : ""));
            }
            String value = trimOws(line, colon + 1);
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if ((c < 0x20 && c != '\t') || c == 0x7f) {
                    throw new MalformedResponse("the value of " + name + " holds a control character");
                }
            }
            into.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>(1)).add(value);
        }
    }

    /** RFC 9110's token: one or more of the visible characters that are not delimiters. */
    static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alnum && TCHAR_SYMBOLS.indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    private static String line(Lines lines, HeadBudget budget) throws IOException {
        String line = lines.next();
        budget.line(line.length() + 2);
        return line;
    }

    private static boolean version(String line) throws MalformedResponse {
        if (line.startsWith("HTTP/1.1 ")) {
            return true;
        }
        if (line.startsWith("HTTP/1.0 ")) {
            return false;
        }
        throw new MalformedResponse("not an HTTP/1.0 or HTTP/1.1 status line: '" + shown(line) + "'");
    }

    private static int status(String line) throws MalformedResponse {
        int status = 0;
        for (int i = 9; i < 12; i++) {
            char c = i < line.length() ? line.charAt(i) : ' ';
            if (c < '0' || c > '9') {
                throw new MalformedResponse("the status is not three digits: '" + shown(line) + "'");
            }
            status = status * 10 + (c - '0');
        }
        if (line.length() > 12 && line.charAt(12) != ' ') {
            throw new MalformedResponse("the status is not followed by a space: '" + shown(line) + "'");
        }
        for (int i = 13; i < line.length(); i++) {
            char c = line.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                throw new MalformedResponse("the reason phrase holds a control character");
            }
        }
        if (status < 100 || status > 599) {
            throw new MalformedResponse("status " + status + " is outside 100..599");
        }
        return status;
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

    /** Upstream text in a message: short, and printable. */
    static String shown(String s) {
        StringBuilder sb = new StringBuilder(Math.min(s.length(), 40));
        for (int i = 0; i < s.length() && sb.length() < 40; i++) {
            char c = s.charAt(i);
            sb.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return s.length() > 40 ? sb + "..." : sb.toString();
    }
}
