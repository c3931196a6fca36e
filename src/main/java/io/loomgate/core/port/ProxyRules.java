package io.loomgate.core.port;

import io.loomgate.rewrite.Cookies;
import io.loomgate.rewrite.HeaderRules;
import io.loomgate.rewrite.PathRewrite;
import java.util.Objects;
import java.util.Optional;

/**
 * What a proxy route does to what passes, in this order. On the way in: its {@code rewrite} of the
 * path below its prefix (applied by the route), then the forwarded headers, then its
 * {@code requestHeaders}. On the way out: redirects pointing at the upstream brought back through
 * the gateway, then its {@code cookiePath} and {@code cookieDomain}, then its {@code responseHeaders}.
 *
 * @param tunnel       how long a tunnel through it may stay open
 * @param maxBodyBytes the largest request body it forwards: a declared {@code Content-Length} over it
 *                     gets 413 before the upstream is called, a chunked body that passes it is cut
 *                     with 413 (nginx's {@code client_max_body_size}, and its default, 1 MiB)
 */
public record ProxyRules(Optional<PathRewrite> rewrite, HeaderRules requestHeaders, HeaderRules responseHeaders, Cookies cookies,
                         TunnelLimits tunnel, long maxBodyBytes) {

    /** nginx's {@code client_max_body_size} default. */
    public static final long DEFAULT_MAX_BODY_BYTES = 1L << 20;

    /** Nothing rewritten, the default tunnel limits and body bound. */
    public static final ProxyRules NONE = new ProxyRules(Optional.empty(), HeaderRules.NONE, HeaderRules.NONE, Cookies.NONE,
            TunnelLimits.DEFAULT, DEFAULT_MAX_BODY_BYTES);

    public ProxyRules {
        Objects.requireNonNull(rewrite, "rewrite");
        Objects.requireNonNull(requestHeaders, "requestHeaders");
        Objects.requireNonNull(responseHeaders, "responseHeaders");
        Objects.requireNonNull(cookies, "cookies");
        Objects.requireNonNull(tunnel, "tunnel");
        if (maxBodyBytes < 0) {
            throw new IllegalArgumentException("maxBodyBytes must be >= 0: " + maxBodyBytes);
        }
    }
}
