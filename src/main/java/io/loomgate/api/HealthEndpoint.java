package io.loomgate.api;

import io.loomgate.config.ThreadMode;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.json.JsonWriter;
import io.loomgate.edge.routing.Handler;
import io.loomgate.edge.listener.Lifecycle;

/**
 * {@code GET /health}: {@code 200 {"status":"UP","threads":"virtual","uptimeMs":...}} while running,
 * {@code 503 {"status":"DRAINING"}} once shutdown has begun, so a load balancer stops sending.
 */
final class HealthEndpoint implements Handler {

    private final Lifecycle lifecycle;
    private final ThreadMode threads;

    HealthEndpoint(Lifecycle lifecycle, ThreadMode threads) {
        this.lifecycle = lifecycle;
        this.threads = threads;
    }

    @Override
    public Response handle(Request request) {
        if (lifecycle.isDraining()) {
            return Response.json(503, new JsonWriter(32).beginObject().field("status", "DRAINING").endObject());
        }
        return Response.json(200, new JsonWriter(80).beginObject()
                .field("status", "UP")
                .field("threads", threads.wire())
                .field("uptimeMs", lifecycle.uptimeMillis())
                .endObject());
    }
}
