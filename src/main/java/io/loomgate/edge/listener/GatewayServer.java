package io.loomgate.edge.listener;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import io.loomgate.config.AddressRanges;
import io.loomgate.config.ServerOptions;
import io.loomgate.config.ThreadMode;
import io.loomgate.edge.admin.AdminGuardFilter;
import io.loomgate.edge.admin.AdminHosts;
import io.loomgate.edge.pipeline.Admission;
import io.loomgate.edge.pipeline.Filter;
import io.loomgate.edge.pipeline.Filters;
import io.loomgate.edge.pipeline.Pipeline;
import io.loomgate.edge.pipeline.Tracing;
import io.loomgate.edge.pipeline.Tunnels;
import io.loomgate.http.StopReason;
import io.loomgate.edge.routing.Route;
import io.loomgate.edge.routing.Router;
import io.loomgate.edge.server.LoomgateServers;
import io.loomgate.edge.server.ServerStats;
import io.loomgate.observe.event.Events;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLContext;

/**
 * The server ({@code --server}: loomgate's own {@link LoomgateServers}, or the JDK's
 * {@link HttpServer}, tuned), with one {@link GatewayHandler} for every path that runs the
 * request {@link Pipeline}, and a graceful
 * {@link #shutdown()}: drain, refuse, finish, cut off what the grace period cannot cover, release.
 *
 * <pre>{@code
 * try (GatewayServer server = GatewayServer.bind(options, new Lifecycle(), new LongAdder())) {
 *     server.start(router, events);
 *     System.out.println(server.baseUri());
 * }
 * }</pre>
 */
public final class GatewayServer implements AutoCloseable {

    /** How long cut-off requests get to answer 503 after being interrupted. */
    private static final Duration CUT_OFF_WAIT = Duration.ofSeconds(1);

    private final ServerOptions options;
    private final HttpServer server;
    private final RequestExecutor executor;
    private final Lifecycle lifecycle;
    private final Admission admission;
    private final Tunnels tunnels;
    private final boolean admin;
    private List<String> adminNames = List.of();
    private final Optional<ServerStats> stats;
    private volatile Router router;
    private volatile GatewayHandler handler;
    private ShutdownReport report;

    private GatewayServer(ServerOptions options, HttpServer server, RequestExecutor executor,
                          Lifecycle lifecycle, Admission admission, boolean admin, Optional<ServerStats> stats) {
        this.options = options;
        this.stats = stats;
        this.admin = admin;
        this.server = server;
        this.executor = executor;
        this.lifecycle = lifecycle;
        this.admission = admission;
        this.tunnels = new Tunnels(options.maxTunnels());
    }

    /**
     * Makes the server (tuning the JDK's, when it is the one) and binds the socket, without serving
     * yet: the port is known, and the gauges ({@link #inFlight()}, {@link #pool()},
     * {@link #admission()}) exist for the routes that report them. {@link #start} then serves.
     *
     * @param virtualStarted counts the virtual threads the server starts for requests
     * @throws IOException when the address cannot be resolved or bound
     */
    public static GatewayServer bind(ServerOptions options, Lifecycle lifecycle, LongAdder virtualStarted)
            throws IOException {
        return bind(options, lifecycle, virtualStarted, Optional.empty(), AddressRanges.NONE, false);
    }

    /**
     * Like {@link #bind(ServerOptions, Lifecycle, LongAdder)}, serving HTTPS when {@code tls} is given
     * (the JDK's {@link HttpsServer}, TLS 1.2 and 1.3 only), with {@code trusted} left out of
     * loomgate's server's limit per client address (a trusted proxy's connections carry many clients).
     */
    public static GatewayServer bind(ServerOptions options, Lifecycle lifecycle, LongAdder virtualStarted,
                                     Optional<SSLContext> tls, AddressRanges trusted) throws IOException {
        return bind(options, lifecycle, virtualStarted, tls, trusted, false);
    }

    /**
     * Binds the admin listener on {@code host} and {@code port}: the same tuning as {@code options},
     * always a virtual thread per request and no admission limit, so nothing the main listener does
     * can delay it. It reports {@code lifecycle} but does not move it; the main server does. It answers
     * a {@code Host} of {@code names} ({@code --admin-names}) besides loopback and {@code host}
     * ({@link AdminHosts}).
     */
    public static GatewayServer bindAdmin(ServerOptions options, String host, int port, List<String> names, Lifecycle lifecycle,
                                          LongAdder virtualStarted) throws IOException {
        ServerOptions adminOptions = new ServerOptions(host, port, ThreadMode.VIRTUAL, options.pool(),
                options.backlog(), options.shutdownGrace(), Duration.ZERO, 0, options.readTimeout(), options.idleTimeout(),
                options.maxConnections(), options.server(), options.maxPerAddress(), 0);
        GatewayServer server = bind(adminOptions, lifecycle, virtualStarted, Optional.empty(), AddressRanges.NONE, true);
        server.adminNames = List.copyOf(names);
        return server;
    }

    private static GatewayServer bind(ServerOptions options, Lifecycle lifecycle, LongAdder virtualStarted,
                                      Optional<SSLContext> tls, AddressRanges trusted, boolean admin) throws IOException {
        ServerMaker made = ServerMaker.bind(options, tls, trusted, virtualStarted);
        HttpServer server = made.server();
        RequestExecutor executor = RequestExecutor.create(options, virtualStarted);
        server.setExecutor(executor);
        return new GatewayServer(options, server, executor, lifecycle, new Admission(options.maxInflight()), admin,
                made.stats());
    }

    /**
     * Serves {@code router}, telling {@code events} about every request. The main server then
     * turns the lifecycle RUNNING: {@code /readyz} says ready from now on.
     */
    public synchronized void start(Router router, Events events) {
        start(router, events, AddressRanges.NONE);
    }

    /** Like {@link #start(Router, Events)}, taking {@code X-Request-Id} as the id from {@code trustedProxies}. */
    public synchronized void start(Router router, Events events, AddressRanges trustedProxies) {
        start(router, events, trustedProxies, Optional.empty());
    }

    /** Like the above, placing requests in traces and recording their spans as {@code tracing} says. */
    public synchronized void start(Router router, Events events, AddressRanges trustedProxies, Optional<Tracing> tracing) {
        if (handler != null) {
            throw new IllegalStateException("already started");
        }
        this.router = router;
        List<Filter> filters = Filters.standard(() -> this.router, lifecycle, admission, tunnels, tracing);
        if (admin) {
            filters = Filters.guarded(filters, new AdminGuardFilter(AdminHosts.of(options.host(), address().getPort(), adminNames)));
        }
        this.handler = new GatewayHandler(new Pipeline(filters, events, executor, trustedProxies));
        server.createContext("/", handler);
        server.start();
        if (!admin) {
            lifecycle.advance(Lifecycle.State.RUNNING);
        }
    }

    /**
     * Serves {@code next} from the next request on; a request already routed finishes on the route
     * it was given. A reload swaps its plan in this way.
     */
    public void serve(Router next) {
        if (handler == null) {
            throw new IllegalStateException("not started");
        }
        this.router = next;
    }

    /** The bound address; the port is the real one when 0 was asked for. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** {@code http://127.0.0.1:8080} (or {@code https://}), with the host as configured and the bound port. */
    public URI baseUri() {
        String host = options.host().contains(":") ? "[" + options.host() + "]" : options.host();
        return URI.create((server instanceof HttpsServer ? "https://" : "http://") + host + ":" + address().getPort());
    }

    /** The line printed once the socket is bound; scripts and tests wait for it. */
    public String listeningLine() {
        return "loomgate listening on " + baseUri() + " (" + options.describeThreads() + ", server=" + options.server().wire() + ")";
    }


    /** Every route served. */
    public List<Route> routes() {
        Router r = router;
        return r == null ? List.of() : r.routes();
    }

    public Lifecycle lifecycle() {
        return lifecycle;
    }

    /** The tunnels open now, and those refused ({@code --max-tunnels}). */
    public Tunnels tunnels() {
        return tunnels;
    }

    public Admission admission() {
        return admission;
    }

    /** loomgate's server's counts (connections, refusals, clients gone); empty on the JDK's. */
    public Optional<ServerStats> serverStats() {
        return stats;
    }

    /** Platform mode: the request pool, for its gauges; null in virtual mode. */
    public ThreadPoolExecutor pool() {
        return executor.pool();
    }

    /** Exchanges in flight: being read, handled or written, or queued for a pool thread. */
    public int inFlight() {
        return executor.inFlight();
    }

    /**
     * Shuts down gracefully, once; later calls return the first report.
     * <ol>
     *   <li>the lifecycle turns DRAINING, so {@code /readyz} and {@code /health} answer 503;</li>
     *   <li>for the drain delay the server still accepts and serves, so a load balancer's health
     *       check sees the 503 and stops sending before anything is refused;</li>
     *   <li>requests that arrive from now on get 503, and the listening socket closes, so new
     *       connections are refused;</li>
     *   <li>requests in flight run to completion, for up to the grace period: those being handled,
     *       and those that arrived earlier and wait for a pool thread;</li>
     *   <li>what still runs then is interrupted, and answers 503 if it can;</li>
     *   <li>the server closes every connection and its accepting thread ends; the pool stops.</li>
     * </ol>
     * A connection still sending its request head is not waited for: a client that has not finished
     * asking cannot hold shutdown up to the grace period, and is simply closed at the end.
     * Our own counts decide when to stop waiting: {@code HttpServer.stop(delay)} alone waits the
     * whole delay once a handler has thrown (JDK-8377302), and counts only whole seconds.
     */
    public synchronized ShutdownReport shutdown() {
        if (report != null) {
            return report;
        }
        long start = System.nanoTime();
        lifecycle.advance(Lifecycle.State.DRAINING);
        Duration delayed = Lifecycle.keepServing(options.drainDelay());
        long closing = System.nanoTime();
        lifecycle.refuseNewRequests();
        long backstopSeconds = options.shutdownGrace().toSeconds() + CUT_OFF_WAIT.toSeconds() + 1;
        Thread stopper = Thread.ofPlatform().name("loomgate-stop").start(() -> server.stop((int) backstopSeconds));
        int cutOff = 0;
        try {
            if (!awaitNoRequests(options.shutdownGrace())) {
                cutOff = requestsInFlight();
                if (handler != null) {
                    handler.stopping(StopReason.SHUTDOWN);   // their calls then say why they stopped
                }
                executor.interruptRunning();
                awaitNoRequests(CUT_OFF_WAIT);
            }
            // stop() is parked in a wait we no longer need; the interrupt ends it and it closes everything.
            stopper.interrupt();
            stopper.join();
            executor.shutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        lifecycle.advance(Lifecycle.State.STOPPED);
        long served = handler == null ? 0 : handler.served();
        long end = System.nanoTime();
        report = new ShutdownReport(served, cutOff, delayed, Duration.ofNanos(end - closing), Duration.ofNanos(end - start));
        return report;
    }

    /** Requests being handled, and exchanges waiting for a thread. */
    private int requestsInFlight() {
        return executor.queued() + (handler == null ? 0 : handler.handling());
    }

    /** Waits until {@link #requestsInFlight()} is 0, or {@code timeout} passes; true if it reached 0. */
    private boolean awaitNoRequests(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (requestsInFlight() > 0) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    @Override
    public void close() {
        shutdown();
    }
}
