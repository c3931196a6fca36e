package io.loomgate.edge.listener;

import io.loomgate.http.Headers;
import java.util.List;
import java.util.Map;

/** The JDK server's request headers as loomgate's own {@link Headers}: the one place the two meet. */
final class ServerHeaders {

    private ServerHeaders() {
    }

    static Headers of(com.sun.net.httpserver.Headers jdk) {
        Headers.Builder b = Headers.builder();
        for (Map.Entry<String, List<String>> e : jdk.entrySet()) {
            for (String value : e.getValue()) {
                b.add(e.getKey(), value);
            }
        }
        return b.build();
    }
}
