package io.loomgate.edge.pipeline;

import io.loomgate.http.HttpError;
import io.loomgate.http.Response;
import java.util.Map;

/**
 * Refuses with 503 and {@code Connection: close} a request that arrived after the server began
 * refusing new work (shutdown, after its drain delay); one that arrived earlier is served. Operator
 * routes ({@code /health}, {@code /metrics}) are always served.
 */
final class DrainFilter implements Filter {

    private final Draining draining;

    DrainFilter(Draining draining) {
        this.draining = draining;
    }

    @Override
    public String name() {
        return "drain";
    }

    @Override
    public Response onRequest(Visit v) {
        if (!v.matched().exempt() && draining.isNew(v.arrival())) {
            throw new HttpError(503, "draining", "the server is shutting down; retry on another instance",
                    Map.of(), Map.of("Connection", "close"));
        }
        return null;
    }
}
