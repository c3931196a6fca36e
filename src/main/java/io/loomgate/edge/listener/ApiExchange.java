package io.loomgate.edge.listener;

import com.sun.net.httpserver.HttpExchange;
import io.loomgate.edge.server.ApiHeaders;
import io.loomgate.http.Exchange;
import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * The pipeline's {@link Exchange} over the JDK's server ({@code --server jdk}). Loomgate's own server
 * implements {@link Exchange} itself and never comes here. The JDK's cannot tell when a client hangs
 * up or how much body it has declared, and cannot switch protocols: an {@code Upgrade} is dropped and
 * the request goes on as a plain one, as RFC 9110 section 7.8 allows.
 */
final class ApiExchange implements Exchange {

    /** The most of a refused body the JDK's server reads and drops before the refusal goes out. */
    static final long JDK_LINGER_BYTES = 8L * 1024 * 1024;

    private final HttpExchange exchange;
    private final Headers headers;
    private final long arrivalNanos;

    ApiExchange(HttpExchange exchange, long arrivalNanos) {
        this.exchange = exchange;
        Headers all = ApiHeaders.of(exchange.getRequestHeaders());
        this.headers = all.contains("Upgrade") ? all.without("upgrade"::equals) : all;   // no copy for the common request
        this.arrivalNanos = arrivalNanos;
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
    public long arrivalNanos() {
        return arrivalNanos;
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
        if (answer.status() >= 400 && "close".equalsIgnoreCase(answer.headers().first("Connection"))) {
            lingerFirst();
        }
        ExchangeIO.write(exchange, answer, head);
    }

    /**
     * The JDK's server has no lingering close: a refusal that closes its connection while the
     * client is still sending (a 413 to a declared 1 MiB) leaves unread bytes, the kernel answers
     * them with a reset, and the client may lose the refusal it was already sent. So on that server
     * the rest of the body, up to {@link #JDK_LINGER_BYTES}, is read and dropped first; the JDK's
     * {@code maxReqTime} (the {@code --read-timeout}) bounds how long that may take. A body that
     * breaks its framing, or is longer, ends it: the client may then see a reset, as before.
     */
    private void lingerFirst() {
        byte[] scratch = new byte[8192];
        long left = JDK_LINGER_BYTES;
        try {
            InputStream in = exchange.getRequestBody();
            for (int n; left > 0 && (n = in.read(scratch, 0, (int) Math.min(scratch.length, left))) >= 0; ) {
                left -= n;
            }
        } catch (IOException ignored) {
            // the client went away or broke its framing: nothing left to protect
        }
    }

    @Override
    public void close() {
        exchange.close();
    }
}
