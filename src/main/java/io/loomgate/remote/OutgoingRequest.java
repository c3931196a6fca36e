package io.loomgate.remote;

import java.io.InputStream;
import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * A request to send upstream.
 *
 * @param method  the method, as sent
 * @param uri     an {@code http://} URI; its raw path and query are sent as they are
 * @param headers name and value pairs, in order, without {@code Host}, {@code Content-Length} or
 *                {@code Transfer-Encoding} (the client writes those)
 * @param body    the body to stream, or null for none
 * @param length  the body's length, or -1 to send it chunked
 */
record OutgoingRequest(String method, URI uri, List<String[]> headers, InputStream body, long length) {

    OutgoingRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(uri, "uri");
        headers = List.copyOf(headers);
    }

    /** A {@code GET} without a body. */
    static OutgoingRequest get(URI uri, List<String[]> headers) {
        return new OutgoingRequest("GET", uri, headers, null, 0);
    }

    /** Safe to send again on a fresh connection: no body was streamed, so nothing was consumed. */
    boolean canRetry() {
        return body == null;
    }
}
