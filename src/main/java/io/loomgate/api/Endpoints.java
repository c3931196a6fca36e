package io.loomgate.api;

import io.loomgate.config.ThreadMode;
import io.loomgate.routing.Route;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The route tables of a running loomgate. The main listener serves {@code /health}, one fan-out
 * endpoint per route of the route file, in its order, the proxy routes (every method but CONNECT and
 * TRACE) and the index. The operator endpoints ({@code /metrics}, {@code /livez}, {@code /readyz},
 * {@code /dashboard}, {@code /debug/*}) join them there, or, with {@code --admin-port}, get the
 * admin listener to themselves (with {@code /health} too).
 */
public final class Endpoints {

    /**
     * Paths the operator endpoints take; a route file may not declare them (nor anything under
     * {@code /debug/}, which the route file refuses on its own).
     */
    public static final Set<String> OPERATOR_PATHS = Set.of("/", "/health", "/metrics", "/livez", "/readyz",
            DashboardEndpoint.PATH, "/debug/threads");

    private Endpoints() {
    }

    /**
     * The main listener's routes.
     *
     * @param withOperator true when there is no admin listener, so the operator endpoints are here
     */
    public static List<Route> main(Wiring w, boolean withOperator) {
        ThreadMode threads = w.config().server().threads();
        List<Route> routes = new ArrayList<>();
        routes.add(Route.operator("/health", new HealthEndpoint(w.lifecycle(), threads)));
        if (withOperator) {
            routes.addAll(operator(w));
        }
        for (FanOutRoute route : w.routes()) {
            routes.add(Route.get(route.path(), new AggregateEndpoint(route, w.upstreams(), w.aggregator(),
                    w.config().services(), threads, w.recent())).guardedBy(route.guard()));
        }
        for (ComposeRoute compose : w.composes()) {
            ComposeEndpoint endpoint = new ComposeEndpoint(compose, w.composer(), w.upstreams(), w.aggregator(),
                    w.config().services(), w.recent());
            for (String method : compose.methods()) {
                routes.add(new Route(method, compose.path(), endpoint, false, compose.readsBody(), compose.guard()));
            }
        }
        for (ProxyRoute proxy : w.proxies()) {
            ProxyEndpoint endpoint = new ProxyEndpoint(proxy, w.aggregator());
            for (String method : ProxyRoute.METHODS) {
                routes.add(new Route(method, proxy.path(), endpoint, false, true, proxy.guard()));
            }
        }
        routes.add(Route.operator("/", new IndexEndpoint(w.routes(), w.proxies(), w.composes(), paths(routes))));
        return routes;
    }

    /** The admin listener's routes: {@code /health} and the operator endpoints. */
    public static List<Route> admin(Wiring w) {
        List<Route> routes = new ArrayList<>();
        routes.add(Route.operator("/health", new HealthEndpoint(w.lifecycle(), w.config().server().threads())));
        routes.addAll(operator(w));
        routes.add(Route.operator("/", new IndexEndpoint(List.of(), List.of(), List.of(), paths(routes))));
        return routes;
    }

    private static List<Route> operator(Wiring w) {
        List<Route> routes = new ArrayList<>();
        routes.add(Route.operator("/metrics", new MetricsEndpoint(w.metrics())));
        routes.add(Route.operator("/livez", ProbeEndpoints.live()));
        routes.add(Route.operator("/readyz", ProbeEndpoints.ready(w.lifecycle())));
        routes.add(Route.operator(DashboardEndpoint.PATH, new DashboardEndpoint()));
        DebugRequestsEndpoint requests = new DebugRequestsEndpoint(w.recent());
        routes.add(Route.operator(DebugRequestsEndpoint.PATH, requests));
        routes.add(Route.operator(DebugRequestsEndpoint.PATH + "/*", requests));
        if (w.config().observability().debugEndpoints()) {
            routes.add(Route.operator("/debug/threads", new DebugThreadsEndpoint()));
        }
        return routes;
    }

    /** The operator paths among {@code routes}, as the index lists them (prefixes left out). */
    private static List<String> paths(List<Route> routes) {
        return routes.stream().filter(r -> r.exempt() && !r.isPrefix()).map(Route::path).toList();
    }
}
