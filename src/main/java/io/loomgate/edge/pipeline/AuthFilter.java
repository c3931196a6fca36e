package io.loomgate.edge.pipeline;

import io.loomgate.http.HttpError;
import io.loomgate.http.Response;

/**
 * Authenticates the caller by the route's method ({@link io.loomgate.edge.auth.Auth}): 401 or 403
 * for a missing, wrong or insufficient credential, else the request goes on knowing who calls. A
 * credential that was sent and refused counts against its client address
 * ({@link io.loomgate.edge.limit.AuthFailures}); a request that sent none costs nothing to refuse.
 */
final class AuthFilter implements Filter {

    @Override
    public String name() {
        return "auth";
    }

    @Override
    public Response onRequest(Visit v) {
        try {
            v.caller(v.edge().auth().authenticate(v.headers()));
        } catch (HttpError refused) {
            if (refused.status() == 401 && v.edge().auth().sentCredentials(v.headers())) {
                v.edge().failures().ifPresent(f -> f.failed(v.clientKey()));
            }
            throw refused;
        }
        return null;
    }
}
