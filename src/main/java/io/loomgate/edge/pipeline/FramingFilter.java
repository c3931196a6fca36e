package io.loomgate.edge.pipeline;

import io.loomgate.http.RequestTarget;
import io.loomgate.http.Response;

/**
 * Refuses what the listener let through but a gateway must not pass on: a version other than
 * HTTP/1.0 or 1.1 (505), headers over their count or size (431), a control character in a value or
 * a {@code Content-Length} that is not one number (400) ({@link HeadChecks}), and a target that is
 * too long or does not decode (400, 414) ({@link RequestTarget}).
 */
final class FramingFilter implements Filter {

    @Override
    public String name() {
        return "framing";
    }

    @Override
    public Response onRequest(Visit v) {
        HeadChecks.check(v.exchange().protocol(), v.exchange().stream(), v.headers());
        v.framed(RequestTarget.of(v.exchange().uri()));
        return null;
    }
}
