package io.loomgate.edge.pipeline;

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
            String by = limit.settings().by();
            if (by.equals("ip")) {
                v.answerHeaders = limit.admit(v.clientKey());
            } else if (by.startsWith("header.")) {
                String value = v.headers().first(by.substring("header.".length()));
                v.answerHeaders = limit.admit(value == null ? "" : value);
            } else if (v.request.caller().name().isPresent()) {
                v.answerHeaders = limit.admit(v.request.caller().name().get());   // the caller auth found
            } else if (v.request.caller().claims().get("jti") instanceof String jti && !jti.isEmpty()) {
                v.answerHeaders = limit.admit("\u0000jti:" + jti);   // a token without sub: its own id, never a bucket shared by all such
            } else {
                v.answerHeaders = limit.admit(v.clientKey());   // nothing names it: the client address
            }
        }
        return null;
    }

    @Override
    public Response onResponse(Visit v, Response answer) {
        Response with = answer;
        Headers added = v.answerHeaders;
        for (String name : added.names()) {
            with = with.withHeader(name, added.first(name));
        }
        return with;
    }
}
