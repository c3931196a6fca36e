package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.edge.AuthFailures;
import io.loomgate.edge.RateLimiter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A parsed, checked route file: its upstreams and its routes, in file order.
 *
 * @param source       where it came from, for messages: a path, or {@code built-in}
 * @param authFailures how many refused credentials a client address may send, across the routes that
 *                     authenticate ({@code "authFailures"}); empty when it is off
 */
public record RouteTable(String source, List<UpstreamDecl> upstreams, List<RouteDecl> routes,
                         Optional<RateLimiter.Settings> authFailures) {

    public RouteTable {
        upstreams = List.copyOf(upstreams);
        routes = List.copyOf(routes);
        Objects.requireNonNull(authFailures, "authFailures");
    }

    public RouteTable(String source, List<UpstreamDecl> upstreams, List<RouteDecl> routes) {
        this(source, upstreams, routes, Optional.of(AuthFailures.DEFAULT));
    }

    /** True when some route checks who is calling: the operator pages then leave the public port. */
    public boolean authenticates() {
        return routes.stream().anyMatch(r -> r.edge().auth().isPresent() && !(r.edge().auth().get() instanceof EdgeDecl.AuthDecl.None));
    }

    public Optional<UpstreamDecl> upstream(UpstreamId id) {
        return upstreams.stream().filter(u -> u.id().equals(id)).findFirst();
    }

    public List<UpstreamId> ids() {
        return upstreams.stream().map(UpstreamDecl::id).toList();
    }

    /** This table with one upstream declaration replaced (same id). */
    public RouteTable with(UpstreamDecl replaced) {
        return new RouteTable(source, upstreams.stream()
                .map(u -> u.id().equals(replaced.id()) ? replaced : u).toList(), routes, authFailures);
    }
}
