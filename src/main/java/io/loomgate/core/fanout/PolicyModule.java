package io.loomgate.core.fanout;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.util.List;

/**
 * A fan-out policy as a module: its name in route files ({@code "policy": "quorum"}), the route
 * fields it owns ({@code quorum}), how it reads and checks them into a {@link PolicySpec}, and what
 * it says when a route of another policy writes one of them. Each policy's module sits in the
 * policy's own file, and {@code io.loomgate.Modules} registers it; nothing else knows a policy by
 * its name.
 */
public interface PolicyModule {

    /** The {@code policy} value, e.g. {@code quorum}. */
    String name();

    /** The route fields it reads beside those every fan-out route has; none for most. */
    List<String> fields();

    /**
     * Reads its fields of {@code route}, a route of this policy whose upstreams are {@code upstreams}.
     *
     * @throws RouteFileException naming the field and the bad value
     */
    PolicySpec read(Fields route, List<UpstreamId> upstreams) throws RouteFileException;

    /** The module of a policy that has no fields of its own: every route of it gets {@code spec}. */
    static PolicyModule plain(String name, PolicySpec spec) {
        return new PolicyModule() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<String> fields() {
                return List.of();
            }

            @Override
            public PolicySpec read(Fields route, List<UpstreamId> upstreams) {
                return spec;
            }
        };
    }

    /** Refuses its own fields on a route of policy {@code other} (a {@code quorum} on an {@code all} route). */
    default void refuseOn(Fields route, String other) throws RouteFileException {
        for (String field : fields()) {
            if (route.optionalValue(field).isPresent()) {
                throw route.bad(field, "is only for policy " + name(), "policy " + other);
            }
        }
    }
}
