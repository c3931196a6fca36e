package io.loomgate.api;

import io.loomgate.config.ThreadMode;
import io.loomgate.edge.routing.Route;
import io.loomgate.edge.routing.RouteMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The route tables of a running loomgate. The main listener serves {@code /health}, one fan-out
 * endpoint per route of the route file, in its order, the composed routes and the proxy routes
 * (every method but CONNECT and TRACE). The operator pages ({@code /metrics}, {@code /dashboard},
 * {@code /debug/*}, the index {@code /}) and the probes {@code /livez} and {@code /readyz} join them
 * there ({@link OperatorPages#MAIN}), or get the admin listener to themselves, with {@code /health}
 * ({@link OperatorPages#ADMIN}); when the route file checks who calls and there is no admin port,
 * only the probes are served ({@link OperatorPages#OFF}).
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

    /** The main listener's routes, with the operator pages when {@code pages} puts them here. */
    public static List<Route> main(Wiring w, OperatorPages pages) {
        ThreadMode threads = w.config().server().threads();
        List<Route> routes = new ArrayList<>();
        routes.add(Route.operator("/health", new HealthEndpoint(w.lifecycle(), threads)));
        switch (pages) {
            case MAIN -> routes.addAll(operator(w));
            case OFF -> routes.addAll(probes(w));
            case ADMIN -> { }
        }
        for (FanOutRoute route : w.served().routes()) {
            AggregateEndpoint endpoint = new AggregateEndpoint(route, w.served().upstreams(), w.served().aggregator(), w.config().services(), threads,
                    w.seen().events());
            for (String method : route.methods()) {
                routes.add(new Route(method, route.path(), endpoint, false, false, route.edge(), route.matcher()));
            }
        }
        for (ComposeRoute compose : w.served().composes()) {
            ComposeEndpoint endpoint = new ComposeEndpoint(compose, w.served().composer(), w.served().upstreams(), w.config().services(),
                    w.seen().events());
            for (String method : compose.methods()) {
                routes.add(new Route(method, compose.path(), endpoint, false, compose.readsBody(), compose.edge(), compose.matcher()));
            }
        }
        for (ProxyRoute proxy : w.served().proxies()) {
            ProxyEndpoint endpoint = new ProxyEndpoint(proxy, w.served().upstreams(), w.seen().events());
            for (String method : proxy.methods()) {
                routes.add(new Route(method, proxy.path(), endpoint, false, true, proxy.edge(), proxy.matcher()));
            }
        }
        boolean catchAll = w.served().proxies().stream().anyMatch(p -> p.path().equals("/*") && p.matcher().equals(RouteMatcher.ANY));
        if (pages == OperatorPages.MAIN && !catchAll) {   // a catch-all serves / too; the index stays on the admin port
            routes.add(Route.operator("/", new IndexEndpoint(w.served().routes(), w.served().proxies(), w.served().composes(), paths(routes))));
        }
        return routes;
    }

    /** The admin listener's routes: {@code /health}, the probes, the operator pages and the index of every route. */
    public static List<Route> admin(Wiring w) {
        List<Route> routes = new ArrayList<>();
        routes.add(Route.operator("/health", new HealthEndpoint(w.lifecycle(), w.config().server().threads())));
        routes.addAll(operator(w));
        routes.add(Route.operator("/", new IndexEndpoint(w.served().routes(), w.served().proxies(), w.served().composes(), paths(routes))));
        return routes;
    }

    private static List<Route> probes(Wiring w) {
        return List.of(Route.operator("/livez", ProbeEndpoints.live()),
                Route.operator("/readyz", ProbeEndpoints.ready(w.lifecycle())));
    }

    private static List<Route> operator(Wiring w) {
        List<Route> routes = new ArrayList<>();
        routes.add(Route.operator("/metrics", new MetricsEndpoint(w.seen().metrics())));
        routes.addAll(probes(w));
        routes.add(Route.operator(DashboardEndpoint.PATH, new DashboardEndpoint()));
        DebugRequestsEndpoint requests = new DebugRequestsEndpoint(w.seen().recent());
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
