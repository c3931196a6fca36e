package io.loomgate;

import io.loomgate.aggregate.Aggregator;
import io.loomgate.api.Endpoints;
import io.loomgate.api.Wiring;
import io.loomgate.config.Config;
import io.loomgate.config.ObservabilityOptions;
import io.loomgate.metrics.AccessLog;
import io.loomgate.metrics.GatewayMetrics;
import io.loomgate.metrics.MetricsLogger;
import io.loomgate.metrics.MetricsSource;
import io.loomgate.metrics.VirtualThreads;
import io.loomgate.routing.Route;
import io.loomgate.routing.Router;
import io.loomgate.server.GatewayServer;
import io.loomgate.server.GatewayServer.ShutdownReport;
import io.loomgate.server.Lifecycle;
import io.loomgate.server.RequestObserver;
import io.loomgate.service.Backend;
import io.loomgate.service.ServiceName;
import io.loomgate.service.Services;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A running loomgate: the components wired together, and their orderly release. {@link Main} starts
 * one from the command line; tests start one on port 0.
 *
 * <pre>{@code
 * try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0"))) {
 *     HttpClient.newHttpClient().send(HttpRequest.newBuilder(gate.uri("/health")).build(), ofString());
 * }
 * }</pre>
 */
public final class Loomgate implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("loomgate");

    private final GatewayServer server;
    private final Services services;
    private final VirtualThreads virtualThreads;
    private final MetricsLogger metricsLogger;
    private ShutdownReport report;

    private Loomgate(GatewayServer server, Services services, VirtualThreads virtualThreads, MetricsLogger metricsLogger) {
        this.server = server;
        this.services = services;
        this.virtualThreads = virtualThreads;
        this.metricsLogger = metricsLogger;
    }

    public static Loomgate start(Config config) throws IOException {
        return start(config, List.of(), Map.of());
    }

    /** Starts loomgate with {@code extraRoutes} added to its own. */
    public static Loomgate start(Config config, List<Route> extraRoutes) throws IOException {
        return start(config, extraRoutes, Map.of());
    }

    /**
     * Starts loomgate with {@code extraRoutes} added to its own and some service backends replaced;
     * tests use them for slow or failing handlers and misbehaving services.
     */
    public static Loomgate start(Config config, List<Route> extraRoutes, Map<ServiceName, Backend> backends)
            throws IOException {
        Lifecycle lifecycle = new Lifecycle();
        LongAdder virtualStarted = new LongAdder();
        Services services = Services.start(config.services(), backends);
        GatewayServer server = null;
        VirtualThreads virtualThreads = null;
        try {
            GatewayMetrics metrics = new GatewayMetrics();
            Aggregator aggregator = new Aggregator(services, config.server().threads(), virtualStarted, metrics);
            server = GatewayServer.bind(config.server(), lifecycle, virtualStarted);
            virtualThreads = VirtualThreads.start(virtualStarted);
            MetricsSource source = new MetricsSource(metrics, server, services.tracker(), virtualThreads,
                    config.server(), lifecycle, Main.version());

            List<Route> routes = new ArrayList<>(Endpoints.all(
                    new Wiring(config, lifecycle, services, aggregator, virtualStarted, source)));
            routes.addAll(extraRoutes);
            metrics.registerRoutes(routes.stream().map(Route::path).toList());

            ObservabilityOptions o = config.observability();
            RequestObserver observer = o.accessLog() ? RequestObserver.all(metrics, new AccessLog()) : metrics;
            server.start(Router.of(routes), observer);
            MetricsLogger logger = o.metricsLog().isZero() ? null : MetricsLogger.start(source, o.metricsLog());
            return new Loomgate(server, services, virtualThreads, logger);
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                server.shutdown();
            }
            if (virtualThreads != null) {
                virtualThreads.close();
            }
            services.close();
            throw e;
        }
    }

    public URI baseUri() {
        return server.baseUri();
    }

    /** {@code baseUri()} plus {@code pathAndQuery}, e.g. {@code uri("/aggregate?timeout=100ms")}. */
    public URI uri(String pathAndQuery) {
        return URI.create(server.baseUri() + pathAndQuery);
    }

    public String listeningLine() {
        return server.listeningLine();
    }

    public GatewayServer server() {
        return server;
    }

    public Services services() {
        return services;
    }

    /**
     * Drains and stops the server, then releases everything else (the metrics log, the JFR stream,
     * the test file), and logs one final line. Idempotent.
     */
    public synchronized ShutdownReport shutdown() {
        if (report == null) {
            report = server.shutdown();
            if (metricsLogger != null) {
                metricsLogger.close();
            }
            virtualThreads.close();
            try {
                services.close();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "could not delete the test file " + services.testFile(), e);
            }
            LOG.log(Level.INFO, "stopped: served " + report.served() + " requests, "
                    + report.cutOff() + " cut off after the grace period; shutdown took "
                    + report.took().toMillis() + " ms");
        }
        return report;
    }

    @Override
    public void close() {
        shutdown();
    }
}
