package io.loomgate.testing;

import io.loomgate.http.Response;
import io.loomgate.json.JsonWriter;
import io.loomgate.edge.routing.Route;
import java.util.List;

/** Routes that exist only in tests: a slow one, one that throws, and one that reports its thread. */
public final class TestRoutes {

    /** What {@code /test/boom} throws; it must never reach a client. */
    public static final String SECRET = "secret-detail-that-must-not-leak";

    private TestRoutes() {
    }

    public static List<Route> all() {
        return List.of(
                Route.get("/test/slow", request -> {
                    long ms = Long.parseLong(request.query().first("ms").orElse("500"));
                    Thread.sleep(ms);
                    return Response.json(200, new JsonWriter().beginObject().field("slept", ms).endObject());
                }),
                Route.get("/test/boom", request -> {
                    throw new IllegalStateException(SECRET);
                }),
                Route.get("/test/thread", request -> {
                    Thread t = Thread.currentThread();
                    return Response.json(200, new JsonWriter().beginObject()
                            .field("virtual", t.isVirtual()).field("name", t.getName()).field("id", t.threadId()).endObject());
                }));
    }
}
