package io.loomgate.edge.routing;

import io.loomgate.http.Request;
import io.loomgate.http.Response;

/**
 * Serves one route. May throw: an {@link io.loomgate.http.HttpError} is answered as it says,
 * anything else becomes a 500 with an error id.
 */
@FunctionalInterface
public interface Handler {
    Response handle(Request request) throws Exception;
}
