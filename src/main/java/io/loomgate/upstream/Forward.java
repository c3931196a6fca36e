package io.loomgate.upstream;

import io.loomgate.http.Request;
import java.util.Objects;

/**
 * A request a proxy route forwards as it came.
 *
 * @param request the client's request: method, headers, body, address
 * @param target  the raw path below the route's prefix, with the raw query: what follows the
 *                upstream's own URL ({@code users/7?x=1} for {@code GET /api/users/7?x=1} on {@code /api/*})
 * @param tunnel  how long a tunnel may stay open, should the request switch protocols
 */
public record Forward(Request request, String target, TunnelLimits tunnel) {

    public Forward {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(tunnel, "tunnel");
    }

    public Forward(Request request, String target) {
        this(request, target, TunnelLimits.DEFAULT);
    }
}
