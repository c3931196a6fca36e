package io.loomgate.http1;

/**
 * The first line of a message: a request line ({@code GET /path HTTP/1.1}) or a status line
 * ({@code HTTP/1.1 200 OK}), each exactly as RFC 9112 writes it: single spaces, a method that is a
 * token, a target with no white space or control character, a version of exactly
 * {@code HTTP/1.0} or {@code HTTP/1.1}, a status of three digits from 100 to 599.
 */
public final class StartLines {

    /** The longest request target read, as nginx's default large header buffer holds it. */
    public static final int MAX_TARGET = 8 * 1024;
    private static final int MAX_METHOD = 32;

    private StartLines() {
    }

    /**
     * @param method the method, a token
     * @param target the request target as sent, still encoded
     * @param http11 true for HTTP/1.1, false for HTTP/1.0
     */
    public record RequestLine(String method, String target, boolean http11) {
    }

    /** @param http11 true for HTTP/1.1, false for HTTP/1.0 */
    public record StatusLine(boolean http11, int status) {
    }

    /**
     * @throws Http1Exception 400 for a line that is not a request line, 414 for a target over
     *                        {@link #MAX_TARGET}, 505 for another version, 501 for a method too long to be one
     */
    public static RequestLine request(String line) throws Http1Exception {
        int sp1 = line.indexOf(' ');
        int sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
        if (sp1 <= 0 || sp2 < 0 || line.indexOf(' ', sp2 + 1) >= 0) {
            throw new Http1Exception("not a request line of a method, a target and a version, each after one space: '"
                    + FieldLines.shown(line) + "'");
        }
        String method = line.substring(0, sp1);
        String target = line.substring(sp1 + 1, sp2);
        String version = line.substring(sp2 + 1);
        if (!io.loomgate.http.FieldText.isToken(method)) {
            throw new Http1Exception("the method '" + FieldLines.shown(method) + "' is not a token");
        }
        if (method.length() > MAX_METHOD) {
            throw new Http1Exception(501, "a method longer than " + MAX_METHOD + " characters");
        }
        if (target.isEmpty()) {
            throw new Http1Exception("an empty request target");
        }
        if (target.length() > MAX_TARGET) {
            throw new Http1Exception(414, "request targets are limited to " + MAX_TARGET + " bytes");
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                throw new Http1Exception("the request target holds a byte that must be percent-encoded");
            }
        }
        return new RequestLine(method, target, version(version, 505));
    }

    /** @throws Http1Exception for anything but an HTTP/1.0 or HTTP/1.1 status line with a status from 100 to 599 */
    public static StatusLine status(String line) throws Http1Exception {
        if (!line.startsWith("HTTP/1.1 ") && !line.startsWith("HTTP/1.0 ")) {
            throw new Http1Exception("not an HTTP/1.0 or HTTP/1.1 status line: '" + FieldLines.shown(line) + "'");
        }
        int status = 0;
        for (int i = 9; i < 12; i++) {
            char c = i < line.length() ? line.charAt(i) : ' ';
            if (c < '0' || c > '9') {
                throw new Http1Exception("the status is not three digits: '" + FieldLines.shown(line) + "'");
            }
            status = status * 10 + (c - '0');
        }
        if (line.length() > 12 && line.charAt(12) != ' ') {
            throw new Http1Exception("the status is not followed by a space: '" + FieldLines.shown(line) + "'");
        }
        for (int i = 13; i < line.length(); i++) {
            char c = line.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                throw new Http1Exception("the reason phrase holds a control character");
            }
        }
        if (status < 100 || status > 599) {
            throw new Http1Exception("status " + status + " is outside 100..599");
        }
        return new StatusLine(line.charAt(7) == '1', status);
    }

    private static boolean version(String version, int otherStatus) throws Http1Exception {
        return switch (version) {
            case "HTTP/1.1" -> true;
            case "HTTP/1.0" -> false;
            default -> {
                boolean looksLikeOne = version.startsWith("HTTP/") && version.length() == 8
                        && Character.isDigit(version.charAt(5)) && version.charAt(6) == '.' && Character.isDigit(version.charAt(7));
                throw looksLikeOne ? new Http1Exception(otherStatus, "only HTTP/1.0 and HTTP/1.1 are served, got '"
                        + FieldLines.shown(version) + "'")
                        : new Http1Exception("the version '" + FieldLines.shown(version) + "' is not HTTP/n.n");
            }
        };
    }
}
