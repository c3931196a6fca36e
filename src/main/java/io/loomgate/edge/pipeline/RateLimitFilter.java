package io.loomgate.edge.pipeline;

import io.loomgate.edge.limit.KeySource;
import io.loomgate.edge.limit.Limit;
import io.loomgate.http.Headers;
import io.loomgate.http.Response;

/**
 * The route's rate limit, by the key it names: the caller authentication found ({@code apiKey},
 * {@code jwt.sub}; a token without {@code sub} by its {@code jti}, else by the client address), the
 * client address ({@code ip}) or a header's value ({@code header.NAME}). A
 * request over it gets 429 with {@code Retry-After}; every answer of one under it carries the
 * {@code RateLimit-*} headers of what it met.
 */
final class RateLimitFilter implements Filter {

    @Override
    public String name() {
        return "rate-limit";
    }

    @Override
    public Response onRequest(Visit v) {
        if (v.edge().limit().isPresent()) {
            Limit limit = v.edge().limit().get();
            v.limited(switch (limit.source()) {
                case KeySource.ClientAddress a -> limit.admit(v.clientKey());
                case KeySource.HeaderValue h -> limit.admit(java.util.Objects.requireNonNullElse(v.headers().first(h.name()), ""));
                case KeySource.Caller c -> callers(v, limit);
            });
        }
        return null;
    }

    /** The caller authentication found; a token without {@code sub}, its own id; nothing at all, the client address. */
    private static Headers callers(Visit v, Limit limit) {
        if (v.request().caller().name().isPresent()) {
            return limit.admit(v.request().caller().name().get());
        }
        if (v.request().caller().claims().get("jti") instanceof String jti && !jti.isEmpty()) {
            return limit.admit("\u0000jti:" + jti);   // never a bucket shared by every token without sub
        }
        return limit.admit(v.clientKey());
    }

    @Override
    public Response onResponse(Visit v, Response answer) {
        Response with = answer;
        Headers added = v.limitHeaders();
        for (String name : added.names()) {
            with = with.withHeader(name, added.first(name));
        }
        return with;
    }
}
