package io.loomgate;

import io.loomgate.config.Config;
import io.loomgate.config.UsageException;
import io.loomgate.edge.RouteEdge;
import io.loomgate.edge.auth.ApiKeys;
import io.loomgate.edge.auth.Auth;
import io.loomgate.edge.auth.EdgeException;
import io.loomgate.edge.limit.AuthFailures;
import io.loomgate.edge.limit.RateLimiter;
import io.loomgate.observe.metrics.LimitStats;
import io.loomgate.plan.EdgeDecl;
import io.loomgate.plan.Plan;
import io.loomgate.plan.RoutePlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Makes each route's {@link RouteEdge} from its plan: the API keys of {@code --api-keys}
 * (read once, and only when a route asks for them), a verifier per JWT route, a rate limiter and a
 * pre-auth limiter per limited route, CORS, and one count of refused credentials per client address
 * shared by every route that authenticates. It keeps every limiter it made, for the metrics.
 */
final class RouteEdges {

    private final Optional<ApiKeys> keys;
    private final Optional<AuthFailures> failures;
    private final List<Named> limiters = new CopyOnWriteArrayList<>();

    private record Named(String limit, String route, RateLimiter limiter) {
    }

    private RouteEdges(Optional<ApiKeys> keys, Optional<AuthFailures> failures) {
        this.keys = keys;
        this.failures = failures;
    }

    /**
     * @throws UsageException when a route requires API keys and there are none, or the file is bad
     */
    static RouteEdges of(Config config, Plan table) throws UsageException {
        Optional<ApiKeys> keys = Optional.empty();
        if (config.edge().apiKeys().isPresent()) {
            try {
                keys = Optional.of(ApiKeys.read(config.edge().apiKeys().get()));
            } catch (EdgeException e) {
                throw new UsageException(e.getMessage());
            }
        }
        for (RoutePlan r : table.routes()) {
            if (r.edge().auth().isPresent()) {
                try {
                    r.edge().auth().get().build(keys);
                } catch (EdgeException e) {
                    throw new UsageException(table.source() + ": route " + r.path() + " " + e.getMessage());
                }
            }
        }
        Optional<AuthFailures> failures = table.authenticates()
                ? table.authFailures().map(s -> new AuthFailures(s, System::nanoTime)) : Optional.empty();
        return new RouteEdges(keys, failures);
    }

    /** The edge of the route at {@code path}. */
    RouteEdge of(String path, EdgeDecl edge) {
        if (edge.isEmpty()) {
            return RouteEdge.NONE;
        }
        Auth auth;
        try {
            auth = edge.auth().isPresent() ? edge.auth().get().build(keys) : new Auth.None();
        } catch (EdgeException checkedAtStart) {
            throw new IllegalStateException(checkedAtStart.getMessage(), checkedAtStart);
        }
        Optional<RateLimiter> preAuth = edge.preAuth().map(s -> kept("pre_auth", path, new RateLimiter(s, System::nanoTime)));
        Optional<RateLimiter> limiter = edge.rateLimit().map(s -> kept("rate_limit", path, new RateLimiter(s, System::nanoTime)));
        return new RouteEdge(edge.cors(), preAuth, auth, failures, limiter);
    }

    private RateLimiter kept(String limit, String route, RateLimiter limiter) {
        limiters.add(new Named(limit, route, limiter));
        return limiter;
    }

    /** Every limit's keys, evictions and refusals now. */
    List<LimitStats> stats() {
        List<LimitStats> stats = new ArrayList<>();
        failures.ifPresent(f -> stats.add(new LimitStats("auth_failures", "*", f.keys(), f.evictions(), f.refused())));
        for (Named n : limiters) {
            stats.add(new LimitStats(n.limit(), n.route(), n.limiter().keys(), n.limiter().evictions(), n.limiter().refused()));
        }
        return stats;
    }
}
