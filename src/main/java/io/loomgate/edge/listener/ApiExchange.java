package io.loomgate.edge.listener;

import com.sun.net.httpserver.HttpExchange;
import io.loomgate.edge.pipeline.Exchange;
import io.loomgate.edge.server.LoomgateExchange;
import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * The pipeline's {@link Exchange} over an {@link HttpExchange} of either server: the JDK's, or
 * loomgate's, which also says when a client hangs up ({@link LoomgateExchange}).
 */
final class ApiExchange implements Exchange {

    private final HttpExchange exchange;
    private final Headers headers;

    ApiExchange(HttpExchange exchange) {
        this.exchange = exchange;
        Headers all = ServerHeaders.of(exchange.getRequestHeaders());
        // An upgrade only loomgate's server can carry out: elsewhere (the JDK's server, HTTP/1.0, a
        // request with a body) the request goes on as a plain one, as RFC 9110 section 7.8 allows.
        boolean canSwitch = exchange instanceof LoomgateExchange ours && ours.canSwitchProtocols();
        this.headers = canSwitch || !all.contains("Upgrade") ? all : all.without("upgrade"::equals);
    }

    @Override
    public String method() {
        return exchange.getRequestMethod();
    }

    @Override
    public URI uri() {
        return exchange.getRequestURI();
    }

    @Override
    public String protocol() {
        return exchange.getProtocol();
    }

    @Override
    public Headers headers() {
        return headers;
    }

    @Override
    public InetSocketAddress remote() {
        return exchange.getRemoteAddress();
    }

    @Override
    public InputStream body() {
        return exchange.getRequestBody();
    }

    @Override
    public void write(Response answer, boolean head) throws IOException {
        ExchangeIO.write(exchange, answer, head);
    }

    @Override
    public void close() {
        exchange.close();
    }

    @Override
    public void onClientGone(Runnable hook) {
        if (exchange instanceof LoomgateExchange watch) {
            watch.onClientGone(hook);
        }
    }

    @Override
    public long declaredBodyLeft() {
        return exchange instanceof LoomgateExchange ours ? ours.declaredBodyLeft() : 0;
    }
}
