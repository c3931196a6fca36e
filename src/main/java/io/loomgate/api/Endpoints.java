package io.loomgate.api;

import io.loomgate.config.ThreadMode;
import io.loomgate.routing.Route;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The route table of a running loomgate: the operator endpoints, then one fan-out endpoint per route
 * of the route file, in its order, then the proxy routes (every method but CONNECT and TRACE).
 */
public final class Endpoints {

    /** Paths the operator endpoints take; a route file may not declare them. */
    public static final Set<String> OPERATOR_PATHS = Set.of("/", "/health", "/metrics", "/debug/threads");

    private Endpoints() {
    }

    public static List<Route> all(Wiring w) {
        ThreadMode threads = w.config().server().threads();
        List<Route> routes = new ArrayList<>();
        routes.add(Route.operator("/health", new HealthEndpoint(w.lifecycle(), threads)));
        routes.add(Route.operator("/metrics", new MetricsEndpoint(w.metrics())));
        for (FanOutRoute route : w.routes()) {
            routes.add(Route.get(route.path(), new AggregateEndpoint(route, w.upstreams(), w.aggregator(),
                    w.config().services(), threads)));
        }
        for (ProxyRoute proxy : w.proxies()) {
            for (String method : ProxyRoute.METHODS) {
                routes.add(new Route(method, proxy.path(), proxy.handler(), false, true));
            }
        }
        boolean debug = w.config().observability().debugEndpoints();
        if (debug) {
            routes.add(Route.operator("/debug/threads", new DebugThreadsEndpoint()));
        }
        routes.add(Route.operator("/", new IndexEndpoint(w.routes(), w.proxies(), debug)));
        return routes;
    }
}
