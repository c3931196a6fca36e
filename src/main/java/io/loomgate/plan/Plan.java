package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.edge.limit.AuthFailures;
import io.loomgate.edge.limit.RateLimiter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A route file, read and checked: its upstreams and its routes, in file order, with everything
 * typed. Immutable, and data only: serving builds the live upstreams, guards and handlers from it,
 * so a second plan can be read while the first serves.
 *
 * @param source       where it came from, for messages: a path, or {@code built-in routes.json}
 * @param authFailures how many refused credentials a client address may send, across the routes that
 *                     authenticate ({@code "authFailures"}); empty when it is off
 */
public record Plan(String source, List<UpstreamDecl> upstreams, List<RoutePlan> routes,
                   Optional<RateLimiter.Settings> authFailures) {

    public Plan {
        Objects.requireNonNull(source, "source");
        upstreams = List.copyOf(upstreams);
        routes = List.copyOf(routes);
        Objects.requireNonNull(authFailures, "authFailures");
    }

    public Plan(String source, List<UpstreamDecl> upstreams, List<RoutePlan> routes) {
        this(source, upstreams, routes, Optional.of(AuthFailures.DEFAULT));
    }

    /** True when some route checks who is calling: the operator pages then leave the public port. */
    public boolean authenticates() {
        return routes.stream().anyMatch(r -> r.edge().auth().isPresent() && r.edge().auth().get().checksCaller());
    }

    public Optional<UpstreamDecl> upstream(UpstreamId id) {
        return upstreams.stream().filter(u -> u.id().equals(id)).findFirst();
    }

    public List<UpstreamId> ids() {
        return upstreams.stream().map(UpstreamDecl::id).toList();
    }

    /** This plan with one upstream declaration replaced (same id). */
    public Plan with(UpstreamDecl replaced) {
        return new Plan(source, upstreams.stream().map(u -> u.id().equals(replaced.id()) ? replaced : u).toList(), routes,
                authFailures);
    }

    /** This plan's routes of one kind, in file order. */
    public <K extends RouteKind> List<RoutePlan> routes(Class<K> kind) {
        return routes.stream().filter(r -> kind.isInstance(r.kind())).toList();
    }
}
