package io.loomgate.plan;

import io.loomgate.core.fanout.PolicyModule;
import io.loomgate.edge.auth.AuthModule;
import io.loomgate.upstream.UpstreamKind;
import java.util.List;
import java.util.Optional;

/**
 * The modules a route file is read with, as {@code io.loomgate.Modules} registers them: the kinds
 * of upstream, the fan-out policies, the kinds of route, the fan-out engines by name, and the
 * authentication methods.
 *
 * @param engines the {@code engine} values a fan-out route may name, and for each the executors it
 *                needs one of (none for {@code structured})
 */
public record PlanModules(List<UpstreamKind> upstreamKinds, List<PolicyModule> policies, List<RouteKindReader> routeKinds,
                          java.util.Map<String, List<String>> engines, List<AuthModule> authMethods) implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("loomgate");

    public PlanModules {
        upstreamKinds = List.copyOf(upstreamKinds);
        authMethods = List.copyOf(authMethods);
        policies = List.copyOf(policies);
        routeKinds = List.copyOf(routeKinds);
        engines = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(engines));
    }

    public Optional<UpstreamKind> upstreamKind(String name) {
        return upstreamKinds.stream().filter(k -> k.name().equals(name)).findFirst();
    }

    public Optional<PolicyModule> policy(String name) {
        return policies.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** Releases what the upstream kinds hold (a connection pool, a sample file); a failure is logged, not thrown. */
    @Override
    public void close() {
        for (UpstreamKind kind : upstreamKinds) {
            if (kind instanceof AutoCloseable held) {
                try {
                    held.close();
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.WARNING, "could not release the " + kind.name() + " upstream kind", e);
                }
            }
        }
    }
}
