package io.loomgate.upstream.cache;

import io.loomgate.http.Headers;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;

/**
 * RFC 9111 section 4.4: an unsafe request ({@code POST}, {@code PUT}, {@code DELETE}, {@code PATCH},
 * any method but {@code GET}, {@code HEAD}, {@code OPTIONS} and {@code TRACE}) answered with a 2xx
 * or 3xx drops the answers stored for its target, and for the URIs its answer's {@code Location}
 * and {@code Content-Location} name on the same host. A proxied request and a composed call alike.
 */
public final class Invalidation {

    private Invalidation() {
    }

    /**
     * @param target the request's path and query as sent upstream (what the cache names answers by)
     * @param host   the host it went to, with {@code port}: a {@code Location} on another names nothing here
     */
    public static void after(CachedCalls calls, String method, int status, String target, Headers answer, String host, int port) {
        if (status < 200 || status > 399 || List.of("GET", "HEAD", "OPTIONS", "TRACE").contains(method)) {
            return;
        }
        calls.purge("GET " + target);
        for (String name : List.of("Location", "Content-Location")) {
            String named = answer.first(name);
            if (named == null) {
                continue;
            }
            try {
                URI to = new URI("http", null, host, port, null, null, null).resolve(target).resolve(named.strip());
                if (to.getHost() != null && to.getHost().equalsIgnoreCase(host) && (to.getPort() == port || to.getPort() == -1 && port == 80)
                        && to.getRawPath() != null) {
                    calls.purge("GET " + to.getRawPath() + (to.getRawQuery() == null ? "" : "?" + to.getRawQuery()));
                }
            } catch (URISyntaxException | IllegalArgumentException e) {
                // a URI that cannot be read names nothing this cache holds
            }
        }
    }
}
