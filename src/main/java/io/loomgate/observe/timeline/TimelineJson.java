package io.loomgate.observe.timeline;

import io.loomgate.json.JsonWriter;
import java.util.List;

/**
 * A timeline in the three forms loomgate hands out: its own JSON ({@code /debug/requests/{id}}), a
 * one-line summary for lists, and the Chrome trace-event format ({@code ?format=trace}), which
 * Perfetto and {@code chrome://tracing} open: one track per part, the request on its own track, and
 * instant markers where the policy decided and where the deadline falls.
 */
public final class TimelineJson {

    private TimelineJson() {
    }

    /**
     * <pre>{@code
     * {"id":"9c41e2-7","route":"/aggregate","policy":"all","status":"failed","httpStatus":502,
     *  "arrivedAt":1763800000123,"forkMs":0.2,"decidedMs":52.6,"deadlineMs":2000,"answeredMs":53.1,
     *  "error":"file: ...","spans":[{"service":"db","outcome":"cancelled","startMs":0.3,"durationMs":52.3}, ...]}
     * }</pre>
     */
    public static JsonWriter full(Timeline t) {
        JsonWriter w = new JsonWriter(512);
        summaryFields(w.beginObject(), t)
                .field("forkMs", t.forkMs())
                .field("decidedMs", t.decidedMs())
                .field("deadlineMs", t.deadlineMs());
        if (!t.error().isEmpty()) {
            w.field("error", t.error());
        }
        w.name("spans").beginArray();
        for (TimelineSpan s : t.spans()) {
            w.beginObject().field("service", s.service());
            if (!s.copy().isEmpty()) {
                w.field("copy", s.copy());
            }
            w.field("outcome", s.outcome()).field("started", s.started());
            s.startMs().ifPresent(at -> w.field("startMs", at));
            w.field("durationMs", s.durationMs());
            if (!s.detail().isEmpty()) {
                w.field("detail", s.detail());
            }
            w.endObject();
        }
        w.endArray();
        t.transfer().ifPresent(x -> w.name("transfer").beginObject().field("bytesIn", x.bytesIn()).field("bytesOut", x.bytesOut())
                .field("firstByteMs", x.firstByteMs()).field("lastByteMs", x.lastByteMs()).field("endpoint", x.endpoint())
                .endObject());
        if (!t.cache().isEmpty()) {
            w.name("cache").beginArray();
            t.cache().forEach(w::value);
            w.endArray();
        }
        if (!t.attempts().isEmpty()) {
            w.name("attempts").beginArray();
            for (TimelineAttempt a : t.attempts()) {
                w.beginObject().field("service", a.service()).field("attempt", a.number()).field("outcome", a.outcome())
                        .field("startMs", a.startMs()).field("durationMs", a.durationMs());
                if (!a.endpoint().isEmpty()) {
                    w.field("endpoint", a.endpoint());
                }
                if (!a.detail().isEmpty()) {
                    w.field("detail", a.detail());
                }
                w.endObject();
            }
            w.endArray();
        }
        return w.endObject();
    }

    /** {@code {"recent":[...],"failed":[...],"slowest":[...]}} of summaries, newest (or slowest) first. */
    public static JsonWriter lists(List<Timeline> recent, List<Timeline> failed, List<Timeline> slowest) {
        JsonWriter w = new JsonWriter(8 * 1024).beginObject()
                .field("capacity", RecentRequests.RECENT)
                .field("failedCapacity", RecentRequests.FAILED)
                .field("slowestCapacity", RecentRequests.SLOWEST);
        list(w, "recent", recent);
        list(w, "failed", failed);
        list(w, "slowest", slowest);
        return w.endObject();
    }

    /**
     * The Chrome trace-event JSON object format: complete events ({@code "ph":"X"}) in microseconds
     * since the epoch, thread names as metadata, and global instant events for the decision and the
     * deadline.
     */
    public static JsonWriter trace(Timeline t) {
        long base = t.arrivedAtMs() * 1000;
        JsonWriter w = new JsonWriter(1024).beginObject().field("displayTimeUnit", "ms");
        w.name("traceEvents").beginArray();
        threadName(w, 0, t.route() + " " + t.id());
        event(w, "X", t.route(), "request", 0, base, micros(t.answeredMs()))
                .name("args").beginObject().field("status", t.status()).field("httpStatus", t.httpStatus())
                .field("policy", t.policy()).endObject().endObject();
        for (int i = 0; i < t.spans().size(); i++) {
            TimelineSpan s = t.spans().get(i);
            int tid = i + 1;
            threadName(w, tid, s.copy().isEmpty() ? s.service() : s.service() + " (" + s.copy() + ")");
            if (s.started()) {
                event(w, "X", s.service(), s.outcome(), tid, base + micros(s.startMs().getAsDouble()),
                        Math.max(1, micros(s.durationMs())))
                        .name("args").beginObject().field("outcome", s.label());
                if (!s.detail().isEmpty()) {
                    w.field("detail", s.detail());
                }
                w.endObject().endObject();
            } else {
                event(w, "i", s.service() + " never started", s.outcome(), tid, base + micros(t.decidedMs()), -1)
                        .field("s", "t").endObject();
            }
        }
        int tries = t.spans().size() + 1;
        if (!t.attempts().isEmpty()) {
            threadName(w, tries, "tries");
        }
        for (TimelineAttempt a : t.attempts()) {
            int tid = tries;
            String name = a.service() + " try " + a.number() + (a.endpoint().isEmpty() ? "" : " at " + a.endpoint());
            event(w, "X", name, a.outcome(), tid, base + micros(a.startMs()),
                    Math.max(1, micros(a.durationMs()))).name("args").beginObject().field("outcome", a.outcome())
                    .field("detail", a.detail()).endObject().endObject();
        }
        event(w, "i", "decided", "policy", 0, base + micros(t.decidedMs()), -1).field("s", "g").endObject();
        event(w, "i", "deadline", "deadline", 0, base + micros(t.deadlineMs()), -1).field("s", "g").endObject();
        return w.endArray().endObject();
    }

    private static void list(JsonWriter w, String name, List<Timeline> timelines) {
        w.name(name).beginArray();
        for (Timeline t : timelines) {
            summaryFields(w.beginObject(), t).endObject();
        }
        w.endArray();
    }

    private static JsonWriter summaryFields(JsonWriter w, Timeline t) {
        w.field("id", t.id())
                .field("route", t.route())
                .field("policy", t.policy())
                .field("status", t.status())
                .field("httpStatus", t.httpStatus())
                .field("arrivedAt", t.arrivedAtMs())
                .field("answeredMs", t.answeredMs());
        return t.clientId().isEmpty() ? w : w.field("clientId", t.clientId());
    }

    /** Opens one event object; the caller may add fields and must end it. {@code dur < 0}: none. */
    private static JsonWriter event(JsonWriter w, String phase, String name, String category, int tid, long ts,
                                    long dur) {
        w.beginObject().field("name", name).field("cat", category).field("ph", phase)
                .field("pid", 1).field("tid", tid).field("ts", ts);
        if (dur >= 0) {
            w.field("dur", dur);
        }
        return w;
    }

    private static void threadName(JsonWriter w, int tid, String name) {
        w.beginObject().field("name", "thread_name").field("ph", "M").field("pid", 1).field("tid", tid)
                .name("args").beginObject().field("name", name).endObject().endObject();
    }

    private static long micros(double ms) {
        return Math.round(ms * 1000);
    }
}
