package io.loomgate.edge.pipeline;

import io.loomgate.http.Response;

/**
 * One step of the request pipeline, as in Envoy's filter chain: on the way in it passes the request
 * on or answers it itself; on the way out it sees the answer, whoever gave it; at the end it may
 * release what it took. {@link Filters} declares them, in the order they run.
 *
 * <pre>{@code
 * final class TeaFilter implements Filter {
 *     public String name() { return "tea"; }
 *     public Response onRequest(Visit v) {
 *         return v.method().equals("BREW") ? Response.text(418, Response.TEXT, "short and stout") : null;
 *     }
 * }
 * }</pre>
 */
public interface Filter {

    /** Its name in the declared order, the docs and its tests. */
    String name();

    /**
     * On the way in, in the declared order.
     *
     * @return null to pass the request on, or the answer to give it now (a preflight's 204)
     * @throws Exception to answer with what the error mapper makes of it (an
     *                   {@link io.loomgate.http.HttpError}: 401, 429, 503 ...)
     */
    Response onRequest(Visit visit) throws Exception;

    /**
     * On the way out, in reverse order, for this filter and every one before it: the answer with
     * what this filter adds (CORS, {@code RateLimit-*}, {@code Connection: close}). Must not throw.
     */
    default Response onResponse(Visit visit, Response answer) {
        return answer;
    }

    /** Once the answer is written, or the client has gone, in reverse order, for the same filters. Must not throw. */
    default void onEnd(Visit visit) {
    }
}
