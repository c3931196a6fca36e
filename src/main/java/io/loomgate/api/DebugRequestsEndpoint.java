package io.loomgate.api;

import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.observe.timeline.RecentRequests;
import io.loomgate.observe.timeline.Timeline;
import io.loomgate.observe.timeline.TimelineJson;
import io.loomgate.edge.routing.Handler;
import java.util.List;

/**
 * {@code GET /debug/requests}: the recent, failed and slowest fan-out requests, as summaries.
 * {@code GET /debug/requests/{id}}: one request's timeline, while the buffer still holds it; with
 * {@code ?format=trace}, in the Chrome trace-event format (opens in Perfetto). An id the buffer no
 * longer holds is a 404 that says how much it keeps.
 */
final class DebugRequestsEndpoint implements Handler {

    static final String PATH = "/debug/requests";
    private static final String ONE = PATH + "/";

    private final RecentRequests recent;

    DebugRequestsEndpoint(RecentRequests recent) {
        this.recent = recent;
    }

    @Override
    public Response handle(Request request) {
        if (!request.path().startsWith(ONE) || request.path().length() == ONE.length()) {
            return Response.json(200, TimelineJson.lists(recent.recent(), recent.failed(), recent.slowest()));
        }
        String id = request.path().substring(ONE.length());
        String format = format(request);
        Timeline t = recent.find(id).orElseThrow(() -> new HttpError(404, "not_found", "request '" + HttpError.echo(id)
                + "' is not in the recent-requests buffer, which keeps the last " + RecentRequests.RECENT
                + " fan-out requests, the last " + RecentRequests.FAILED + " that were not ok and the "
                + RecentRequests.SLOWEST + " slowest of the last " + RecentRequests.SLOW_WINDOW_MINUTES + " minutes"));
        return Response.json(200, format.equals("trace") ? TimelineJson.trace(t) : TimelineJson.full(t));
    }

    private static String format(Request request) {
        List<String> asked = request.query().all("format");
        if (asked.isEmpty()) {
            return "json";
        }
        if (asked.size() > 1 || !List.of("json", "trace").contains(asked.getFirst())) {
            throw HttpError.badParameter("format", String.join("&", asked), "json or trace, given once");
        }
        return asked.getFirst();
    }
}
