package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.compose.CallGraph;
import io.loomgate.core.fanout.PolicySpec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What kind of route a route is, with the settings of that kind, typed and checked: the three
 * kinds are a closed set, so what serves them switches over this type, and the compiler sees every
 * kind served. Nothing after reading compares a kind, or a policy, as text.
 */
public sealed interface RouteKind {

    /** The upstreams it calls, in its order. */
    List<UpstreamId> upstreams();

    /**
     * A GET that calls its upstreams at once and merges their answers under a policy.
     *
     * @param engine      the engine that runs the calls: {@code structured}, or the CompletableFuture
     *                    baseline's {@code completable-future} (the demo's comparison)
     * @param executor    for the baseline: {@code common-pool} or {@code virtual-threads}
     * @param passthrough whether the single upstream's own HTTP status is the answer's
     * @param valueOnly   whether the answer is the single upstream's value itself, not the JSON contract
     */
    record FanOut(List<UpstreamId> upstreams, PolicySpec policy, String engine, Optional<String> executor,
                  boolean passthrough, boolean valueOnly) implements RouteKind {
        public FanOut {
            upstreams = List.copyOf(upstreams);
            Objects.requireNonNull(policy, "policy");
            Objects.requireNonNull(engine, "engine");
            Objects.requireNonNull(executor, "executor");
        }

        /** The engine's key: {@code structured}, or {@code completable-future/common-pool}. */
        public String engineKey() {
            return executor.map(e -> engine + "/" + e).orElse(engine);
        }
    }

    /**
     * A call graph, each call started the moment its inputs are ready.
     *
     * @param written its {@code calls}, {@code answer} and {@code maxBytes} as the file wrote them, for {@code --print-routes}
     */
    record Compose(CallGraph graph, Map<String, Object> written) implements RouteKind {
        public Compose {
            Objects.requireNonNull(graph, "graph");
            written = Collections.unmodifiableMap(new LinkedHashMap<>(written));
        }

        @Override
        public List<UpstreamId> upstreams() {
            return graph.calls().stream().map(c -> c.upstream()).distinct().toList();
        }

        /** True when a call carries the client's body. */
        public boolean readsBody() {
            return graph.calls().stream().anyMatch(c -> c.sendsBody());
        }
    }

    /** A path prefix ({@code /api/*}) forwarded to one HTTP upstream as it came. */
    record Proxy(UpstreamId upstream, io.loomgate.core.port.ProxyRules rules) implements RouteKind {
        public Proxy {
            Objects.requireNonNull(upstream, "upstream");
            Objects.requireNonNull(rules, "rules");
        }

        @Override
        public List<UpstreamId> upstreams() {
            return List.of(upstream);
        }
    }
}
