package io.loomgate.core.port;

import io.loomgate.http.Request;
import java.util.Objects;

/**
 * A request a proxy route forwards as it came.
 *
 * @param request the client's request: method, headers, body, address
 * @param target  the raw path below the route's prefix (rewritten by the route's {@code rewrite}),
 *                with the raw query: what follows the upstream's own URL ({@code users/7?x=1} for
 *                {@code GET /api/users/7?x=1} on {@code /api/*})
 * @param prefix  the raw path the route's prefix took ({@code /api/}): what a redirect back through
 *                the gateway starts with, and {@code X-Forwarded-Prefix}
 * @param rules   what the route does to what passes
 */
public record Forward(Request request, String target, String prefix, ProxyRules rules) {

    public Forward {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(rules, "rules");
    }

    public Forward(Request request, String target) {
        this(request, target, "/", ProxyRules.NONE);
    }

    /** How long a tunnel through the route may stay open. */
    public TunnelLimits tunnel() {
        return rules.tunnel();
    }
}
