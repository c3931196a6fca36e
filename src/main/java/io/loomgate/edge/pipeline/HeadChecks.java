package io.loomgate.edge.pipeline;

import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import io.loomgate.http1.HeadLimits;
import java.util.Map;

/**
 * Checks on the request line's version and on the header block that the JDK server does not make:
 * HTTP/1.0, HTTP/1.1 and, from loomgate's own server, HTTP/2 streams only (else 505), at most {@link #MAX_HEADERS} headers and
 * {@link #MAX_HEADER_BYTES} bytes of them (else 431), no control characters in a header value and
 * a {@code Content-Length} of digits only (else 400). The JDK's own, larger limit then only
 * catches what is plainly hostile, by closing the connection; it already refuses bad header names,
 * a {@code Content-Length} beside a {@code Transfer-Encoding}, and codings other than chunked.
 */
final class HeadChecks {

    /** The same limits loomgate's own server reads a head under ({@link HeadLimits}). */
    static final int MAX_HEADERS = HeadLimits.MAX_FIELDS;
    static final int MAX_HEADER_BYTES = HeadLimits.MAX_REQUEST_BYTES;

    private HeadChecks() {
    }

    /** @param stream the exchange is an HTTP/2 stream (a request line saying {@code HTTP/2.0} is still a 505) */
    static void check(String protocol, boolean stream, Headers headers) {
        if (!"HTTP/1.1".equals(protocol) && !"HTTP/1.0".equals(protocol) && !(stream && "HTTP/2.0".equals(protocol))) {
            throw new HttpError(505, "http_version_not_supported",
                    "only HTTP/1.0, HTTP/1.1 and HTTP/2 are served, got '" + HttpError.echo(protocol) + "'");
        }
        long[] bytes = {0};
        headers.forEach((name, value) -> {
            bytes[0] += name.length() + value.length() + 4;
            if (holdsControl(value)) {
                throw HttpError.badRequest("bad_header", "the value of " + HttpError.echo(name) + " holds a control character");
            }
        });
        int count = headers.size();
        if (count > MAX_HEADERS || bytes[0] > MAX_HEADER_BYTES) {
            throw new HttpError(431, "header_fields_too_large", "request headers are limited to "
                    + MAX_HEADERS + " fields and " + MAX_HEADER_BYTES + " bytes; got " + count + " fields, " + bytes[0] + " bytes");
        }
        String length = headers.first("Content-Length");
        if (length != null && !digits(length)) {
            throw new HttpError(400, "bad_header", "Content-Length must be a number of bytes, got '"
                    + HttpError.echo(length) + "'", Map.of(), Map.of("Connection", "close"));
        }
    }

    /** A character below a space but the tab, or DEL: a loop, as this runs for every field of every request. */
    private static boolean holdsControl(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                return true;
            }
        }
        return false;
    }

    private static boolean digits(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * True when the connection must close after this request: its body was chunked. The JDK's
     * chunked decoder reads a chunk size into an {@code int} (so {@code 100000000}, 2^32, reads as
     * 0, the end) and skips no trailers, so what follows such a body could be read as a second
     * request. Closing the connection after the answer means nothing after the body is ever read.
     */
    static boolean endsConnection(Headers headers) {
        return headers.contains("Transfer-Encoding");
    }
}
