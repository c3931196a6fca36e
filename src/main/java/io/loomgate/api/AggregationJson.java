package io.loomgate.api;

import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.Value;
import io.loomgate.core.fanout.Aggregation;
import io.loomgate.core.fanout.HedgeReport;
import io.loomgate.core.call.Status;
import io.loomgate.http.Response;
import io.loomgate.json.JsonWriter;
import java.time.Duration;

/**
 * Writes an aggregation as the response contract says:
 * <pre>{@code
 * {"endpoint":"/aggregate","policy":"all","status":"ok","completed":true,"durationMs":302,
 *  "timeoutMs":2000,"threads":"virtual","requestId":"9c41e2-7","results":[
 *    {"service":"db","state":"success","durationMs":300,"value":"DB call completed"}, ...]}
 * }</pre>
 * A hedge's answer also says {@code "hedge": {"sent": true, "sentAtMs": 12, "winner": "backup"}}
 * and labels each result's {@code copy}; the backup is listed only when it was sent.
 * HTTP 200 for ok and degraded, 502 for failed, 504 for timeout. {@code completed} is true only
 * for ok; a degraded answer (a fallback stands in for a part) is a 200 that also says
 * {@code X-Loomgate-Completed: false}, so clients that only read headers can tell.
 */
final class AggregationJson {

    private AggregationJson() {
    }

    /**
     * The answer to one request on {@code route}. A route on the CompletableFuture engine names that
     * engine as its {@code policy} and adds its {@code executor}, as the baselines always have.
     */
    static Response response(FanOutRoute route, Aggregation a, Duration timeout, ThreadMode threads,
                             String requestId) {
        if (route.valueOnly()) {
            return valueOnly(route, a);
        }
        String executor = route.engine().executor().orElse(null);
        JsonWriter w = new JsonWriter(512).beginObject()
                .field("endpoint", route.path())
                .field("policy", executor == null ? a.policy() : route.engine().name())
                .field("status", a.status().wire())
                .field("completed", a.completed())
                .field("durationMs", millis(a.duration()))
                .field("timeoutMs", timeout.toMillis())
                .field("threads", threads.wire())
                .field("requestId", requestId);
        if (executor != null) {
            w.field("executor", executor);
        }
        a.error().ifPresent(e -> w.field("error", e));
        a.hedge().ifPresent(h -> writeHedge(w, h));
        w.name("results").beginArray();
        for (int i = 0; i < a.parts().size(); i++) {
            writePart(w, a.parts().get(i), a.hedge().isEmpty() ? null : i == 0 ? "primary" : "backup");
        }
        Response r = Response.json(route.passthrough() ? passedThrough(a) : a.status().httpStatus(),
                w.endArray().endObject());
        return a.status() == Status.DEGRADED ? r.withHeader("X-Loomgate-Completed", "false") : r;
    }

    /** {@code "hedge": {"sent": true, "sentAtMs": 12, "winner": "backup"}}; no winner when neither copy succeeded. */
    private static void writeHedge(JsonWriter w, HedgeReport h) {
        w.name("hedge").beginObject().field("sent", h.sent());
        h.sentAt().ifPresent(at -> w.field("sentAtMs", millis(at)));
        h.winner().ifPresent(copy -> w.field("winner", copy));
        w.endObject();
    }

    /** @param copy for a hedge: {@code primary} or {@code backup}; null otherwise */
    private static void writePart(JsonWriter w, FinishedCall p, String copy) {
        w.beginObject().field("service", p.upstream().value());
        if (copy != null) {
            w.field("copy", copy);
        }
        w.field("state", p.outcome().state())
                .field("durationMs", millis(p.duration()));
        switch (p.outcome()) {
            case Outcome.Success s -> s.value().writeTo(w.name("value"));
            case Outcome.Failed f -> w.field("error", f.reason());
            case Outcome.Fallback f -> {
                f.value().writeTo(w.name("value"));
                w.field("reason", f.reason());
            }
            case Outcome.Cancelled _, Outcome.TimedOut _, Outcome.Orphaned _ -> {
            }
        }
        w.endObject();
    }

    /**
     * {@code "answer": "value"}: the single part's value as the whole body (200, or the passed-through
     * status), or, when it has none, {@code {"error": ...}} with the status the policy gives.
     */
    private static Response valueOnly(FanOutRoute route, Aggregation a) {
        int status = route.passthrough() ? passedThrough(a) : a.status().httpStatus();
        JsonWriter w = new JsonWriter(256);
        switch (a.parts().getFirst().outcome()) {
            case Outcome.Success s -> s.value().writeTo(w);
            case Outcome.Failed f -> w.beginObject().field("error", f.reason()).endObject();
            default -> w.beginObject().field("error", a.error().orElse(a.status().wire())).endObject();
        }
        return Response.json(status, w);
    }

    /**
     * {@code "status": "passthrough"}: the single upstream's own HTTP status, when it answered with
     * one; otherwise (it could not be reached, the deadline passed) the status the policy gives.
     */
    private static int passedThrough(Aggregation a) {
        return switch (a.parts().getFirst().outcome()) {
            case Outcome.Success s when s.value() instanceof Value.WithStatus v -> v.status();
            case Outcome.Failed f when f.status().isPresent() -> f.status().getAsInt();
            default -> a.status().httpStatus();
        };
    }

    /** Milliseconds, rounded to the nearest. */
    private static long millis(Duration d) {
        return (d.toNanos() + 500_000) / 1_000_000;
    }
}
