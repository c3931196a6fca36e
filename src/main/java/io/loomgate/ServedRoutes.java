package io.loomgate;

import io.loomgate.core.fanout.FanOut;
import io.loomgate.core.fanout.Policy;
import io.loomgate.api.ComposeRoute;
import io.loomgate.api.FanOutRoute;
import io.loomgate.api.ProxyRoute;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.plan.RouteDecl;
import io.loomgate.plan.RouteTable;
import io.loomgate.routing.Guard;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The route table's routes made ready to serve: each fan-out route with its policy and engine, each
 * proxy route with its endpoint. The route file parser has checked every name already.
 *
 * @param fanOuts the fan-out routes, in file order
 * @param proxies the proxy routes, in file order
 * @param composes the composed routes, in file order
 */
record ServedRoutes(List<FanOutRoute> fanOuts, List<ProxyRoute> proxies, List<ComposeRoute> composes) {

    /**
     * @param engines        by name: {@code structured}, {@code completable-future/common-pool}, ...
     * @param defaultTimeout {@code --timeout}, for routes that declare none
     */
    static ServedRoutes of(RouteTable table, Map<String, FanOut> engines, Duration defaultTimeout, Guards guards) {
        List<FanOutRoute> fanOuts = table.routes().stream().filter(r -> !r.isProxy() && !r.isCompose())
                .map(r -> fanOut(r, engines, guards.of(r.path(), r.edge()))).toList();
        List<ComposeRoute> composes = table.routes().stream().filter(RouteDecl::isCompose)
                .map(r -> new ComposeRoute(r.path(), r.graph().orElseThrow(), r.methods(), r.upstreams(), r.timeout(),
                        r.clientKnobs(), guards.of(r.path(), r.edge()))).toList();
        List<ProxyRoute> proxies = table.routes().stream().filter(RouteDecl::isProxy)
                .map(r -> new ProxyRoute(r.path(), r.upstreams().getFirst(), r.timeout().orElse(defaultTimeout),
                        guards.of(r.path(), r.edge()))).toList();
        return new ServedRoutes(fanOuts, proxies, composes);
    }

    private static FanOutRoute fanOut(RouteDecl r, Map<String, FanOut> engines, Guard guard) {
        String engine = r.executor().map(e -> r.engine() + "/" + e).orElse(r.engine());
        Policy policy = switch (r.policy()) {
            case "single" -> Policy.single();
            case "all" -> Policy.all();
            case "any" -> Policy.any();
            case "quorum" -> Policy.quorum(r.quorum());
            case "hedge" -> Policy.hedge(r.hedge().orElseThrow());
            case "fallback" -> {
                Map<UpstreamId, Value> values = new LinkedHashMap<>();
                r.fallbacks().forEach((id, json) -> values.put(id, w -> w.tree(json)));
                yield Policy.withFallback(values);
            }
            default -> throw new IllegalStateException("the route file parser let policy '" + r.policy() + "' through");
        };
        return new FanOutRoute(r.path(), policy, engines.get(engine), r.upstreams(), r.timeout(), r.passesStatusThrough(),
                r.answersWithValue(), r.clientKnobs(), guard);
    }

}
