package io.loomgate;

import io.loomgate.config.Config;
import io.loomgate.config.UsageException;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.compose.CallSpec;
import io.loomgate.core.fanout.FanOut;
import io.loomgate.tls.ServerTls;
import io.loomgate.tls.TlsException;
import io.loomgate.observe.event.Events;
import io.loomgate.plan.Plan;
import io.loomgate.plan.RouteKind;
import io.loomgate.plan.PlanModules;
import io.loomgate.plan.UpstreamDecl;
import io.loomgate.core.port.Extensions;
import io.loomgate.core.port.Upstream;
import io.loomgate.upstream.Upstreams;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything loomgate serves with, checked and built in one step before any socket is bound: the
 * route plan with the flags' overrides applied ({@link EffectiveRoutes}), each route's edge
 * ({@link RouteEdges}: API keys, key sets, limits), the listener's TLS, the upstreams inside their
 * stacks, and each route ready to serve by its kind. Every problem is a {@link UsageException}. A
 * serving plan holds no socket and no thread, so a second one can be compiled while the first
 * serves: a reload builds the next one this way, and only then swaps.
 *
 * @param plan      the routes and upstreams as declared, overrides applied
 * @param edges     each route's edge, and the limits' counters
 * @param tls       the main listener's TLS, when {@code --tls-cert} asks for it
 * @param upstreams every upstream in its stack, and the call log
 * @param routes    each route ready to serve
 */
record ServingPlan(Plan plan, RouteEdges edges, Optional<ServerTls.Listener> tls, Upstreams upstreams, ServedRoutes routes) {

    /**
     * @param modules  the registered modules ({@link Modules#of})
     * @param replaced declared upstreams to replace (tests make upstreams misbehave this way)
     * @param engines  the fan-out engines by key ({@code structured}, {@code completable-future/common-pool}, ...)
     * @param events   what the upstreams tell of their calls, beside their call log
     */
    static ServingPlan compile(Config config, PlanModules modules, Map<UpstreamId, Upstream> replaced,
                               Map<String, FanOut> engines, Events events) throws UsageException {
        return compile(config, modules, replaced, engines, events, Optional.empty());
    }

    /**
     * Like the above, for a reload: the upstreams whose declaration is unchanged keep {@code previous}'s
     * stacks (breaker, retry budget, pool), and the routes whose limits are unchanged keep its limiters.
     */
    static ServingPlan compile(Config config, PlanModules modules, Map<UpstreamId, Upstream> replaced,
                               Map<String, FanOut> engines, Events events, Optional<ServingPlan> previous)
            throws UsageException {
        Plan plan = EffectiveRoutes.load(config, modules);
        RouteEdges edges = RouteEdges.of(config, plan, previous.map(ServingPlan::edges));
        Optional<ServerTls.Listener> tls = listenerTls(config);
        Upstreams upstreams = upstreams(config, plan, replaced, events, previous);
        return new ServingPlan(plan, edges, tls, upstreams,
                ServedRoutes.of(plan, engines, ServedRoutes.proxyTimeout(config.services().maxTimeout()), edges));
    }

    /** The listener's TLS: a bad certificate or key is a usage error (exit 2). */
    private static Optional<ServerTls.Listener> listenerTls(Config config) throws UsageException {
        if (config.edge().tls().isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(ServerTls.listener(config.edge().tls().get()));
        } catch (TlsException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static Upstreams upstreams(Config config, Plan plan, Map<UpstreamId, Upstream> replaced, Events events,
                                       Optional<ServingPlan> previous) {
        Upstreams.Builder builder = Upstreams.builder(config.services().seed()).events(events);
        previous.ifPresent(p -> builder.carry(p.upstreams(), unchanged(p.plan(), plan, replaced)));
        for (UpstreamDecl u : plan.upstreams()) {
            Upstream upstream = replaced.containsKey(u.id()) ? replaced.get(u.id()) : u.kind().create(u.id(), u.settings());
            if (u.breaker().isPresent()) {
                builder.add(u.id(), upstream, u.faults(), u.breaker().get());
            } else {
                builder.add(u.id(), upstream, u.faults());
            }
            builder.retry(u.id(), u.retry());
        }
        Upstreams built = builder.build();
        built.callsDeclared(callsDeclared(plan));
        return built;
    }

    /** What each composed call asks of its upstream beyond its shape (its own cache), by upstream. */
    private static Map<UpstreamId, List<Extensions>> callsDeclared(Plan plan) {
        Map<UpstreamId, List<Extensions>> by = new HashMap<>();
        for (var r : plan.routes(RouteKind.Compose.class)) {
            for (CallSpec c : ((RouteKind.Compose) r.kind()).graph().calls()) {
                by.computeIfAbsent(c.upstream(), k -> new ArrayList<>()).add(c.extensions());
            }
        }
        return by;
    }

    /** The upstreams declared as they were: same kind, settings, faults, breaker and retry, and no file read. */
    static List<UpstreamId> unchanged(Plan before, Plan now, Map<UpstreamId, Upstream> replaced) {
        return now.upstreams().stream().filter(u -> !replaced.containsKey(u.id()) && !u.settings().readsFiles()
                && before.upstream(u.id()).filter(u::equals).isPresent()).map(UpstreamDecl::id).toList();
    }
}
