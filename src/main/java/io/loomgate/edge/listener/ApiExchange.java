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
        this.headers = ServerHeaders.of(exchange.getRequestHeaders());
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
