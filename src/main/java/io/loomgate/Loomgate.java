package io.loomgate;

import io.loomgate.aggregate.Aggregation;
import io.loomgate.aggregate.AggregationListener;
import io.loomgate.aggregate.Aggregator;
import io.loomgate.api.Endpoints;
import io.loomgate.config.Config;
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
import java.time.Duration;
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
    private ShutdownReport report;

    private Loomgate(GatewayServer server, Services services) {
        this.server = server;
        this.services = services;
    }

    public static Loomgate start(Config config) throws IOException {
        return start(config, List.of(), Map.of());
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
        try {
            Aggregator aggregator = new Aggregator(services, config.server().threads(), virtualStarted, NO_LISTENER);
            List<Route> routes = new ArrayList<>(Endpoints.all(config, lifecycle, services, aggregator, virtualStarted));
            routes.addAll(extraRoutes);
            RequestObserver observer = RequestObserver.all();
            GatewayServer server = GatewayServer.start(config.server(), Router.of(routes), observer, lifecycle,
                    virtualStarted);
            return new Loomgate(server, services);
        } catch (IOException | RuntimeException e) {
            services.close();
            throw e;
        }
    }

    /** Starts loomgate with {@code extraRoutes} added to its own. */
    public static Loomgate start(Config config, List<Route> extraRoutes) throws IOException {
        return start(config, extraRoutes, Map.of());
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

    /** Drains and stops the server, releases every resource, and logs one final line. Idempotent. */
    public synchronized ShutdownReport shutdown() {
        if (report == null) {
            report = server.shutdown();
            try {
                services.close();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "could not delete the test file " + services.testFile(), e);
            }
            LOG.log(Level.INFO, "loomgate stopped: served " + report.served() + " requests, "
                    + report.cutOff() + " cut off after the grace period; shutdown took "
                    + report.took().toMillis() + " ms");
        }
        return report;
    }

    @Override
    public void close() {
        shutdown();
    }

    private static final AggregationListener NO_LISTENER = new AggregationListener() {
        @Override
        public void aggregated(Aggregation aggregation) {
        }

        @Override
        public void orphanEnded(ServiceName service, Duration workAfterResponse) {
        }
    };
}
