package io.loomgate.edge.pipeline;

import io.loomgate.edge.cors.Cors;
import io.loomgate.http.Response;

/**
 * The route's CORS ({@link Cors}): a preflight is answered here, before anything costs; on the way
 * out every answer of the route, refusals included, gets the headers that let its origin's pages read it.
 */
final class CorsFilter implements Filter {

    @Override
    public String name() {
        return "cors";
    }

    @Override
    public Response onRequest(Visit v) {
        if (v.edge().cors().isEmpty()) {
            return null;
        }
        String origin = v.headers().first("Origin");
        String asked = v.headers().first("Access-Control-Request-Method");
        if (Cors.isPreflight(v.method(), origin, asked)) {
            return v.edge().cors().get().preflight(origin, asked.strip(), v.headers().first("Access-Control-Request-Headers"));
        }
        return null;
    }

    @Override
    public Response onResponse(Visit v, Response answer) {
        return v.edge().cors().map(c -> c.decorate(v.headers().first("Origin"), answer)).orElse(answer);
    }
}
