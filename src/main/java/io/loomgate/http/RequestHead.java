package io.loomgate.http;

import com.sun.net.httpserver.Headers;
import java.util.List;
import java.util.Map;

/**
 * Checks on the request line's version and on the header block that the JDK server does not make:
 * HTTP/1.0 and HTTP/1.1 only (else 505), at most {@link #MAX_HEADERS} headers and
 * {@link #MAX_HEADER_BYTES} bytes of them (else 431). The JDK's own, larger limit then only
 * catches what is plainly hostile, by closing the connection.
 */
public final class RequestHead {

    public static final int MAX_HEADERS = 100;
    public static final int MAX_HEADER_BYTES = 16 * 1024;

    private RequestHead() {
    }

    public static void check(String protocol, Headers headers) {
        if (!"HTTP/1.1".equals(protocol) && !"HTTP/1.0".equals(protocol)) {
            throw new HttpError(505, "http_version_not_supported",
                    "only HTTP/1.0 and HTTP/1.1 are served, got '" + HttpError.echo(protocol) + "'");
        }
        int count = 0;
        long bytes = 0;
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            for (String value : e.getValue()) {
                count++;
                bytes += e.getKey().length() + value.length() + 4;
            }
        }
        if (count > MAX_HEADERS || bytes > MAX_HEADER_BYTES) {
            throw new HttpError(431, "header_fields_too_large", "request headers are limited to "
                    + MAX_HEADERS + " fields and " + MAX_HEADER_BYTES + " bytes; got " + count + " fields, " + bytes + " bytes");
        }
    }
}
