package io.loomgate.remote;

import java.io.InputStream;
import java.util.List;
import java.util.Objects;

/**
 * A request to send upstream.
 *
 * @param method  the method, as sent
 * @param origin  where it goes
 * @param target  the raw path and query, sent as they are ({@code /api/data?x=1})
 * @param headers name and value pairs, in order, without {@code Host}, {@code Content-Length} or
 *                {@code Transfer-Encoding} (the client writes those)
 * @param body    the body to stream, or null for none
 * @param length  the body's length, or -1 to send it chunked
 */
record OutgoingRequest(String method, Origin origin, String target, List<String[]> headers, InputStream body,
                       long length) {

    OutgoingRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(headers, "headers");
    }

    /** A {@code GET} without a body. */
    static OutgoingRequest get(Origin origin, String target, List<String[]> headers) {
        return new OutgoingRequest("GET", origin, target, headers, null, 0);
    }

    /** Safe to send again on a fresh connection: no body was streamed, so nothing was consumed. */
    boolean canRetry() {
        return body == null;
    }
}
