package io.loomgate.remote;

import java.net.URI;

/**
 * Where an upstream's connections go: host, port, the {@code Host} header, and the pool key. Worked
 * out once from the upstream's URL, so no request has to parse a URI.
 *
 * @param target the URL's raw path and query ({@code /api/?x=1}), what requests extend
 */
record Origin(String host, int port, String authority, String key, String target) {

    static Origin of(URI url) {
        int port = url.getPort() >= 0 ? url.getPort() : 80;
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String target = url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
        return new Origin(url.getHost(), port, url.getRawAuthority(), url.getHost() + ":" + port, target);
    }

    /** The URL's target with more query parameters ({@code a=1&b=2}) added to its own. */
    String withQuery(String query) {
        return target + (target.indexOf('?') >= 0 ? "&" : "?") + query;
    }
}
