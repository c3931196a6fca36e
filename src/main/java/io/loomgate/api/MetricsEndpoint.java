package io.loomgate.api;

import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.observe.metrics.MetricsFormat;
import io.loomgate.observe.metrics.MetricsSource;
import io.loomgate.edge.routing.Handler;
import java.util.List;

/**
 * {@code GET /metrics}: human text by default, Prometheus text format 0.0.4 for
 * {@code ?format=prometheus} or a scrape's {@code Accept} header, JSON for {@code ?format=json}.
 * An unknown format is a 400 that lists the accepted ones.
 */
final class MetricsEndpoint implements Handler {

    private final MetricsSource source;

    MetricsEndpoint(MetricsSource source) {
        this.source = source;
    }

    @Override
    public Response handle(Request request) {
        MetricsFormat format = format(request);
        return Response.text(200, format.contentType(), source.render(format));
    }

    private static MetricsFormat format(Request request) {
        List<String> asked = request.query().all("format");
        if (asked.isEmpty()) {
            return MetricsFormat.negotiate(request.headers().first("Accept"));
        }
        String accepted = "one of " + MetricsFormat.accepted();
        if (asked.size() > 1) {
            throw HttpError.badParameter("format", String.join("&", asked), accepted + ", given once");
        }
        return MetricsFormat.fromWire(asked.getFirst())
                .orElseThrow(() -> HttpError.badParameter("format", asked.getFirst(), accepted));
    }
}
