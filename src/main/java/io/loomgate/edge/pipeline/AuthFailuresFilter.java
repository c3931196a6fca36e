package io.loomgate.edge.pipeline;

import io.loomgate.edge.limit.AuthFailures;
import io.loomgate.http.Response;

/**
 * Refuses with 429 a client address whose refused credentials ran out ({@link AuthFailures}),
 * before its credentials cost a lookup or a signature check. The {@link AuthFilter} counts them.
 */
final class AuthFailuresFilter implements Filter {

    @Override
    public String name() {
        return "auth-failures";
    }

    @Override
    public Response onRequest(Visit v) {
        v.edge().failures().ifPresent(f -> f.check(v.clientKey()));
        return null;
    }
}
