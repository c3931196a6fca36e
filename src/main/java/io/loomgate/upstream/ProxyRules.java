package io.loomgate.upstream;

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
 * @param tunnel how long a tunnel through it may stay open
 */
public record ProxyRules(Optional<PathRewrite> rewrite, HeaderRules requestHeaders, HeaderRules responseHeaders, Cookies cookies,
                         TunnelLimits tunnel) {

    /** Nothing rewritten, the default tunnel limits. */
    public static final ProxyRules NONE = new ProxyRules(Optional.empty(), HeaderRules.NONE, HeaderRules.NONE, Cookies.NONE,
            TunnelLimits.DEFAULT);

    public ProxyRules {
        Objects.requireNonNull(rewrite, "rewrite");
        Objects.requireNonNull(requestHeaders, "requestHeaders");
        Objects.requireNonNull(responseHeaders, "responseHeaders");
        Objects.requireNonNull(cookies, "cookies");
        Objects.requireNonNull(tunnel, "tunnel");
    }
}
