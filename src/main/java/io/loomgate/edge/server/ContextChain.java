package io.loomgate.edge.server;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * What a context runs for an exchange, in the API's order: its filters, then its authenticator
 * (a retry or a failure answers with its status and no body), then its handler.
 */
final class ContextChain {

    private ContextChain() {
    }

    /** Runs {@code c}'s chain on {@code exchange}; an authenticated caller goes to {@code principal}. */
    static void run(Context c, HttpExchange exchange, Consumer<HttpPrincipal> principal) throws IOException {
        new Filter.Chain(c.getFilters(), authenticated(c, principal)).doFilter(exchange);
    }

    private static HttpHandler authenticated(Context c, Consumer<HttpPrincipal> principal) {
        Authenticator auth = c.getAuthenticator();
        if (auth == null) {
            return c.getHandler();
        }
        return exchange -> {
            switch (auth.authenticate(exchange)) {
                case Authenticator.Success s -> {
                    principal.accept(s.getPrincipal());
                    c.getHandler().handle(exchange);
                }
                case Authenticator.Retry r -> exchange.sendResponseHeaders(r.getResponseCode(), -1);
                case Authenticator.Failure f -> exchange.sendResponseHeaders(f.getResponseCode(), -1);
                default -> throw new IllegalStateException("an authenticator result the API does not define");
            }
        };
    }
}
