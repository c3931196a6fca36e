package io.loomgate.edge.pipeline;

import io.loomgate.http.Response;

/**
 * Says {@code Connection: close} on an answer after which the connection must not be reused: while
 * the server drains, so clients move to another instance, and after a request whose framing leaves
 * doubt ({@link HeadChecks#endsConnection}).
 */
final class ConnectionFilter implements Filter {

    private final Draining draining;

    ConnectionFilter(Draining draining) {
        this.draining = draining;
    }

    @Override
    public String name() {
        return "connection";
    }

    @Override
    public Response onRequest(Visit v) {
        return null;
    }

    @Override
    public Response onResponse(Visit v, Response answer) {
        if ((draining.isDraining() || HeadChecks.endsConnection(v.headers())) && !answer.headers().contains("Connection")) {
            return answer.withHeader("Connection", "close");
        }
        return answer;
    }
}
