package io.loomgate.api;

import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.edge.routing.Handler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /dashboard}: one self-contained HTML page from the jar (its script, styles and SVG
 * inline; nothing fetched from elsewhere), which polls {@code /metrics?format=json},
 * {@code /debug/requests} and {@code /readyz} once a second and draws each request's timeline.
 */
final class DashboardEndpoint implements Handler {

    static final String PATH = "/dashboard";

    private final byte[] page;

    DashboardEndpoint() {
        try (InputStream in = DashboardEndpoint.class.getResourceAsStream("dashboard.html")) {
            if (in == null) {
                throw new IllegalStateException("dashboard.html is missing from the jar");
            }
            page = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Response handle(Request request) {
        return new Response(200, "text/html; charset=utf-8", page, Headers.of("Cache-Control", "no-cache"));
    }
}
