package io.loomgate;

import io.loomgate.config.Config;
import io.loomgate.config.RedisOptions;
import io.loomgate.config.UsageException;
import io.loomgate.edge.RouteEdge;
import io.loomgate.edge.auth.ApiKeys;
import io.loomgate.edge.auth.Auth;
import io.loomgate.edge.auth.EdgeException;
import io.loomgate.edge.limit.AuthFailures;
import io.loomgate.edge.limit.Limit;
import io.loomgate.edge.limit.RateLimiter;
import io.loomgate.edge.limit.SharedLimiter;
import io.loomgate.tls.ClientTls;
import io.loomgate.tls.TlsException;
import io.loomgate.observe.metrics.LimitStats;
import io.loomgate.plan.EdgeDecl;
import io.loomgate.plan.Plan;
import io.loomgate.plan.RoutePlan;
import io.loomgate.store.redis.RedisClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Makes each route's {@link RouteEdge} from its plan: the API keys of {@code --api-keys}
 * (read once, and only when a route asks for them), a verifier per JWT route, a rate limiter and a
 * pre-auth limiter per limited route, CORS, and one count of refused credentials per client address
 * shared by every route that authenticates. It keeps every limiter it made, for the metrics. Made
 * again at a reload (the API keys and key sets read afresh), it takes over the previous plan's
 * limiters whose route and settings are unchanged, so a reload empties no client's bucket.
 */
final class RouteEdges {

    private final Optional<ApiKeys> keys;
    private final Optional<AuthFailures> failures;
    private final List<Named> limiters = new CopyOnWriteArrayList<>();
    private final List<Named> before;
    private final Optional<RedisClient> redis;

    private record Named(String limit, String route, Limit limiter) {
    }

    private RouteEdges(Optional<ApiKeys> keys, Optional<AuthFailures> failures, List<Named> before, Optional<RedisClient> redis) {
        this.keys = keys;
        this.failures = failures;
        this.before = before;
        this.redis = redis;
    }

    /**
     * @throws UsageException when a route requires API keys and there are none, or the file is bad
     */
    static RouteEdges of(Config config, Plan table) throws UsageException {
        return of(config, table, Optional.empty());
    }

    /** Like {@link #of(Config, Plan)}, taking over {@code previous}'s unchanged limiters. */
    static RouteEdges of(Config config, Plan table, Optional<RouteEdges> previous) throws UsageException {
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
        Optional<AuthFailures> kept = previous.flatMap(p -> p.failures);
        Optional<AuthFailures> failures = table.authenticates()
                ? table.authFailures().map(s -> kept.filter(k -> k.settings().equals(s)).orElseGet(() -> new AuthFailures(s, System::nanoTime)))
                : Optional.empty();
        return new RouteEdges(keys, failures, previous.map(p -> List.copyOf(p.limiters)).orElse(List.of()),
                redis(config, table, previous));
    }

    /**
     * The Redis client of {@code --redis}, when a route shares its limit: the previous plan's, or a
     * new one (which connects once the plan serves: {@link #activate}).
     *
     * @throws UsageException when a route shares its limit and there is no {@code --redis}
     */
    private static Optional<RedisClient> redis(Config config, Plan table, Optional<RouteEdges> previous) throws UsageException {
        Optional<RoutePlan> shared = table.routes().stream()
                .filter(r -> r.edge().rateLimit().flatMap(RateLimiter.Settings::shared).isPresent()).findFirst();
        Optional<RedisClient> before = previous.flatMap(p -> p.redis);
        if (shared.isEmpty() || before.isPresent()) {
            return before;
        }
        RedisOptions o = config.edge().redis().orElseThrow(() -> new UsageException(table.source() + ": route " + shared.get().path()
                + " shares its rate limit (\"shared\": true), which needs --redis URL: the Redis the fleet keeps its limits on"));
        try {
            return Optional.of(new RedisClient(o, o.tls() ? Optional.of(ClientTls.trusting(o.caFile())) : Optional.empty()));
        } catch (TlsException e) {
            throw new UsageException("--redis-ca " + e.getMessage());
        }
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
        Optional<RateLimiter> preAuth = edge.preAuth().map(s -> (RateLimiter) kept("pre_auth", path, s));   // never shared
        Optional<Limit> limiter = edge.rateLimit().map(s -> kept("rate_limit", path, s));
        return new RouteEdge(edge.cors(), preAuth, auth, failures, limiter, edge.compress());
    }

    /** The previous plan's limiter of this route, when its settings are the same; a new one otherwise. Kept for the metrics. */
    private Limit kept(String limit, String route, RateLimiter.Settings settings) {
        Limit kept = before.stream().filter(n -> n.limit().equals(limit) && n.route().equals(route)
                        && n.limiter().settings().equals(settings)).map(Named::limiter).findFirst()
                .orElseGet(() -> made(route, settings));
        limiters.add(new Named(limit, route, kept));
        return kept;
    }

    private Limit made(String route, RateLimiter.Settings settings) {
        RateLimiter local = new RateLimiter(settings, System::nanoTime);
        if (settings.shared().isEmpty()) {
            return local;
        }
        return new SharedLimiter(local, redis.orElseThrow(() -> new IllegalStateException("checked when the plan was made")), route);
    }

    /** The Redis client's state, when a route shares its limit. */
    Optional<io.loomgate.store.redis.RedisStats> redis() {
        return redis.map(RedisClient::stats);
    }

    /**
     * Once the plan serves: the Redis client starts connecting, in the background, so the first
     * requests do not fall back for want of a connection.
     */
    void activate() {
        redis.ifPresent(RedisClient::connect);
    }

    /** Closes the Redis client's connections: once, when loomgate stops (a reload carries it on). */
    void close() {
        redis.ifPresent(RedisClient::close);
    }

    /** Every limit's keys, evictions and refusals now. */
    List<LimitStats> stats() {
        List<LimitStats> stats = new ArrayList<>();
        failures.ifPresent(f -> stats.add(new LimitStats("auth_failures", "*", f.keys(), f.evictions(), f.refused())));
        for (Named n : limiters) {
            long fallbacks = n.limiter() instanceof SharedLimiter shared ? shared.fallbacks() : -1;
            stats.add(new LimitStats(n.limit(), n.route(), n.limiter().keys(), n.limiter().evictions(), n.limiter().refused(), fallbacks));
        }
        return stats;
    }
}
