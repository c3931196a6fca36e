package io.loomgate.edge.pipeline;

import io.loomgate.http.Response;

/**
 * The route's limit per client address taken before authentication ({@code "preAuthLimit"}): 429
 * with {@code Retry-After} once an address's bucket is empty, before its credentials cost anything.
 */
final class PreAuthLimitFilter implements Filter {

    @Override
    public String name() {
        return "pre-auth-limit";
    }

    @Override
    public Response onRequest(Visit v) {
        v.edge().preAuth().ifPresent(limit -> limit.admit(v.clientKey()));
        return null;
    }
}
