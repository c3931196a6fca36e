package io.loomgate;

import io.loomgate.api.ComposeRoute;
import io.loomgate.api.FanOutRoute;
import io.loomgate.api.ProxyRoute;
import io.loomgate.core.fanout.FanOut;
import io.loomgate.plan.Plan;
import io.loomgate.plan.RouteKind;
import io.loomgate.plan.RoutePlan;
import io.loomgate.edge.RouteEdge;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The plan's routes made ready to serve, each by its kind: a fan-out route with its policy built
 * and its engine, a composed route with its graph, a proxy route with its deadline, each with its
 * edge.
 *
 * @param fanOuts  the fan-out routes, in file order
 * @param proxies  the proxy routes, in file order
 * @param composes the composed routes, in file order
 */
record ServedRoutes(List<FanOutRoute> fanOuts, List<ProxyRoute> proxies, List<ComposeRoute> composes) {

    /**
     * @param engines        by key: {@code structured}, {@code completable-future/common-pool}, ...
     * @param proxyTimeout   a proxy route's deadline when it declares none ({@link #proxyTimeout}); the others take theirs per request
     */
    /**
     * A proxied request's deadline for its answer's head when its route names none: 15 s, Envoy's
     * route timeout (the aggregation default, {@code --timeout}, is for fan-outs: 2 s made a proxied
     * answer that takes 5 s a 504), at most {@code --max-timeout}. The body then streams with the
     * upstream's idle timeout between bytes, not a total.
     */
    static Duration proxyTimeout(Duration maxTimeout) {
        Duration envoy = Duration.ofSeconds(15);
        return envoy.compareTo(maxTimeout) <= 0 ? envoy : maxTimeout;
    }

    static ServedRoutes of(Plan plan, Map<String, FanOut> engines, Duration proxyTimeout, RouteEdges edges) {
        List<FanOutRoute> fanOuts = new ArrayList<>();
        List<ProxyRoute> proxies = new ArrayList<>();
        List<ComposeRoute> composes = new ArrayList<>();
        for (RoutePlan r : plan.routes()) {
            String matched = r.matcher().describe();   // two routes of one path are told apart by what they match
            RouteEdge edge = edges.of(matched.isEmpty() ? r.path() : r.path() + " " + matched, r.edge());
            switch (r.kind()) {
                case RouteKind.FanOut f -> fanOuts.add(new FanOutRoute(r.path(), f.policy().build(), engines.get(f.engineKey()),
                        f.upstreams(), r.timeout(), f.passthrough(), f.valueOnly(), r.clientKnobs(), edge, r.methods(), r.matcher()));
                case RouteKind.Compose c -> composes.add(new ComposeRoute(r.path(), c.graph(), r.methods(), c.upstreams(),
                        r.timeout(), r.clientKnobs(), edge, r.matcher()));
                case RouteKind.Proxy p -> proxies.add(new ProxyRoute(r.path(), p.upstream(), r.timeout().orElse(proxyTimeout),
                        edge, p.rules(), r.methods(), r.matcher()));
            }
        }
        return new ServedRoutes(fanOuts, proxies, composes);
    }
}
