package io.loomgate.api;

import io.loomgate.call.ServiceId;
import io.loomgate.routing.Handler;
import java.util.List;
import java.util.Objects;

/**
 * A reverse-proxy route of the route table, ready to serve.
 *
 * @param path     the prefix path, e.g. {@code /api/*}
 * @param upstream the HTTP upstream it forwards to
 * @param handler  what forwards a request and streams the answer back
 */
public record ProxyRoute(String path, ServiceId upstream, Handler handler) {

    /** The methods a proxy route forwards; {@code HEAD} goes with {@code GET}. */
    static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

    public ProxyRoute {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(handler, "handler");
    }
}
