package io.loomgate.edge.server;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import com.sun.net.httpserver.spi.HttpServerProvider;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.LongAdder;

/**
 * loomgate's own implementation of the {@code com.sun.net.httpserver} API, built for virtual
 * threads: a virtual thread per connection with blocking reads and writes and their deadlines, no
 * selector thread; requests read by the same strict codec as the HTTP client's answers
 * ({@link io.loomgate.http1}); a client that hangs up mid-request cancels it; connections bounded in
 * all and per client address ({@link ServerLimits}). Handlers, filters, contexts, executors and
 * {@code stop(delay)} work as the API defines them. A context whose handler is an
 * {@link ExchangeHandler} (the gateway's) gets loomgate's own {@link io.loomgate.http.Exchange}
 * instead, with nothing of the API in between.
 *
 * <p>It is not registered as the JVM's provider: {@code HttpServer.create} still gives the JDK's,
 * unless a program asks for this one with
 * {@code -Dcom.sun.net.httpserver.HttpServerProvider=io.loomgate.edge.server.LoomgateServers}
 * (the load harness does, to measure the bare server's cost on each). Or make servers from an instance:
 *
 * <pre>{@code
 * LoomgateServers servers = new LoomgateServers(ServerLimits.DEFAULTS);
 * HttpServer server = servers.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0);
 * server.createContext("/", exchange -> { ... });
 * server.start();
 * }</pre>
 */
public final class LoomgateServers extends HttpServerProvider {

    private final ServerLimits limits;
    private final ServerStats stats;

    public LoomgateServers(ServerLimits limits) {
        this(limits, new LongAdder());
    }

    /** @param threadsStarted counts the virtual threads the servers start (a connection's, a hang-up watch's) */
    public LoomgateServers(ServerLimits limits, LongAdder threadsStarted) {
        this.limits = limits;
        this.stats = new ServerStats(threadsStarted);
    }

    /** With {@link ServerLimits#DEFAULTS}: the constructor the JDK calls for a provider named by system property. */
    public LoomgateServers() {
        this(ServerLimits.DEFAULTS);
    }

    /** Bound at once when {@code address} is given, as the API says; else call {@code bind}. */
    @Override
    public HttpServer createHttpServer(InetSocketAddress address, int backlog) throws IOException {
        PlainServer server = new PlainServer(limits, stats);
        if (address != null) {
            server.bind(address, backlog);
        }
        return server;
    }

    @Override
    public HttpsServer createHttpsServer(InetSocketAddress address, int backlog) throws IOException {
        TlsServer server = new TlsServer(limits, stats);
        if (address != null) {
            server.bind(address, backlog);
        }
        return server;
    }

    /** What the servers made by this provider count, together. */
    public ServerStats stats() {
        return stats;
    }
}
