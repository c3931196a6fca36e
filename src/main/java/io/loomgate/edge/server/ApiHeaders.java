package io.loomgate.edge.server;

import io.loomgate.http.Headers;
import java.util.List;
import java.util.Map;

/**
 * The {@code com.sun.net.httpserver} API's {@link com.sun.net.httpserver.Headers} and loomgate's own
 * {@link Headers}: the one place the two shapes meet. The gateway holds only its own; the API's are
 * made for a handler that asks for them (on loomgate's server) or read from the JDK's server.
 */
public final class ApiHeaders {

    private ApiHeaders() {
    }

    /** The API's fields as loomgate's, in their order. */
    public static Headers of(com.sun.net.httpserver.Headers api) {
        Headers.Builder b = Headers.builder();
        for (Map.Entry<String, List<String>> e : api.entrySet()) {
            for (String value : e.getValue()) {
                b.add(e.getKey(), value);
            }
        }
        return b.build();
    }

    /** {@code fields} as the API's read-only headers (names normalised as the API does). */
    public static com.sun.net.httpserver.Headers readOnly(Headers fields) {
        com.sun.net.httpserver.Headers api = new com.sun.net.httpserver.Headers();
        addTo(api, fields);
        return com.sun.net.httpserver.Headers.of(api);
    }

    /** Adds every line of {@code fields} to the API's {@code api}. */
    public static void addTo(com.sun.net.httpserver.Headers api, Headers fields) {
        fields.forEach(api::add);
    }
}
