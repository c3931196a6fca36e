package io.loomgate.edge.pipeline;

import io.loomgate.http.Response;

/**
 * Gives the request its id ({@link RequestIds}): a trusted proxy's {@code X-Request-Id}, else a new
 * one, keeping the client's own beside it. Every answer carries the id back as {@code X-Request-Id},
 * replacing any an upstream sent.
 */
final class RequestIdFilter implements Filter {

    private final RequestIds ids = new RequestIds();

    @Override
    public String name() {
        return "request-id";
    }

    @Override
    public Response onRequest(Visit v) {
        String offered = v.headers().first("X-Request-Id");
        String id = ids.idFor(offered, v.fromTrustedProxy());
        v.identified(id, RequestIds.clientId(offered, id));
        return null;
    }

    @Override
    public Response onResponse(Visit v, Response answer) {
        return answer.withHeader("X-Request-Id", v.id());
    }
}
