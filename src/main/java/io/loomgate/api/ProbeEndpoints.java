package io.loomgate.api;

import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import io.loomgate.json.JsonWriter;
import io.loomgate.edge.routing.Handler;
import io.loomgate.edge.listener.Lifecycle;

/**
 * The two Kubernetes-style probes. {@code /livez}: the process answers, nothing else is checked
 * ({@code 200 {"status":"ALIVE"}}), so a restart is asked for only when the JVM is wedged.
 * {@code /readyz}: whether to send this instance traffic: {@code 200 {"status":"READY"}} while
 * running, {@code 503} with {@code STARTING} before the routes serve and {@code DRAINING} once
 * shutdown has begun.
 */
final class ProbeEndpoints {

    private ProbeEndpoints() {
    }

    static Handler live() {
        byte[] alive = new JsonWriter(24).beginObject().field("status", "ALIVE").endObject().toBytes();
        return request -> new Response(200, Response.JSON, alive, Headers.EMPTY);
    }

    static Handler ready(Lifecycle lifecycle) {
        return request -> {
            Lifecycle.State state = lifecycle.state();
            int status = state == Lifecycle.State.RUNNING ? 200 : 503;
            String word = switch (state) {
                case STARTING -> "STARTING";
                case RUNNING -> "READY";
                case DRAINING, STOPPED -> "DRAINING";
            };
            return Response.json(status, new JsonWriter(32).beginObject().field("status", word).endObject());
        };
    }
}
