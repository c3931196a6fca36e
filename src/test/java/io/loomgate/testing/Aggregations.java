package io.loomgate.testing;

import io.loomgate.observe.event.CallRecord;
import io.loomgate.upstream.CallLog;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

/** Reading aggregation responses and the call records behind them, for tests. */
public final class Aggregations {

    private Aggregations() {
    }

    /** service → state, in response order. */
    @SuppressWarnings("unchecked")
    public static Map<String, String> states(Map<String, Object> body) {
        Map<String, String> states = new java.util.LinkedHashMap<>();
        for (Map<String, Object> p : (List<Map<String, Object>>) body.get("results")) {
            states.put((String) p.get("service"), (String) p.get("state"));
        }
        return states;
    }

    /** The part of {@code service} in the response. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> part(Map<String, Object> body, String service) {
        return ((List<Map<String, Object>>) body.get("results")).stream()
                .filter(p -> service.equals(p.get("service"))).findFirst().orElseThrow();
    }

    /** The call {@code service} made for the request that got {@code response}, as the service recorded it. */
    public static CallRecord call(CallLog tracker, HttpResponse<String> response, String service) {
        String id = response.headers().firstValue("X-Request-Id").orElseThrow();
        return tracker.callsOf(id).stream().filter(c -> c.upstream().value().equals(service)).findFirst()
                .orElseThrow(() -> new AssertionError("no recorded " + service + " call for request " + id
                        + "; recorded: " + tracker.callsOf(id)));
    }
}
