package io.loomgate.routefile;

import io.loomgate.call.ServiceId;
import java.util.List;
import java.util.Optional;

/**
 * A parsed, checked route file: its upstreams and its routes, in file order.
 *
 * @param source where it came from, for messages: a path, or {@code built-in}
 */
public record RouteTable(String source, List<UpstreamDecl> upstreams, List<RouteDecl> routes) {

    public RouteTable {
        upstreams = List.copyOf(upstreams);
        routes = List.copyOf(routes);
    }

    public Optional<UpstreamDecl> upstream(ServiceId id) {
        return upstreams.stream().filter(u -> u.id().equals(id)).findFirst();
    }

    public List<ServiceId> ids() {
        return upstreams.stream().map(UpstreamDecl::id).toList();
    }

    /** This table with one upstream declaration replaced (same id). */
    public RouteTable with(UpstreamDecl replaced) {
        return new RouteTable(source, upstreams.stream()
                .map(u -> u.id().equals(replaced.id()) ? replaced : u).toList(), routes);
    }
}
