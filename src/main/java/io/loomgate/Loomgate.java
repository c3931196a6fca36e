package io.loomgate;

import io.loomgate.api.Endpoints;
import io.loomgate.config.Config;
import io.loomgate.routing.Route;
import io.loomgate.routing.Router;
import io.loomgate.server.GatewayServer;
import io.loomgate.server.GatewayServer.ShutdownReport;
import io.loomgate.server.Lifecycle;
import io.loomgate.server.RequestObserver;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
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
    private ShutdownReport report;

    private Loomgate(GatewayServer server) {
        this.server = server;
    }

    public static Loomgate start(Config config) throws IOException {
        return start(config, List.of());
    }

    /**
     * Starts loomgate with {@code extraRoutes} added to its own; tests use them for slow or failing
     * handlers.
     */
    public static Loomgate start(Config config, List<Route> extraRoutes) throws IOException {
        Lifecycle lifecycle = new Lifecycle();
        List<Route> routes = new ArrayList<>(Endpoints.all(config, lifecycle));
        routes.addAll(extraRoutes);
        RequestObserver observer = RequestObserver.all();
        GatewayServer server = GatewayServer.start(config.server(), Router.of(routes), observer, lifecycle,
                new LongAdder());
        return new Loomgate(server);
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

    /** Drains and stops the server, releases every resource, and logs one final line. Idempotent. */
    public synchronized ShutdownReport shutdown() {
        if (report == null) {
            report = server.shutdown();
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
}
