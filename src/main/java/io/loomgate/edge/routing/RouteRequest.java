package io.loomgate.edge.routing;

import io.loomgate.http.Headers;
import io.loomgate.http.QueryParams;
import java.util.Objects;

/**
 * What the router matches a request on: its method, its decoded path, the host it names (see
 * {@link RouteMatcher#hostOf}), its headers and its decoded query parameters.
 */
public record RouteRequest(String method, String path, String host, Headers headers, QueryParams query) {

    public RouteRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(query, "query");
    }

    /** A request with nothing but a method and a path: it matches only routes without hosts or conditions. */
    public static RouteRequest of(String method, String path) {
        return new RouteRequest(method, path, "", Headers.EMPTY, QueryParams.parse(null));
    }
}
