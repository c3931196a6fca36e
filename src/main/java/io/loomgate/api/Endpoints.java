package io.loomgate.api;

import io.loomgate.config.Config;
import io.loomgate.routing.Route;
import io.loomgate.server.Lifecycle;
import java.util.ArrayList;
import java.util.List;

/** The route table of a running loomgate: every endpoint, in the order the README lists them. */
public final class Endpoints {

    private Endpoints() {
    }

    public static List<Route> all(Config config, Lifecycle lifecycle) {
        List<Route> routes = new ArrayList<>();
        routes.add(Route.operator("/health", new HealthEndpoint(lifecycle, config.server().threads())));
        return routes;
    }
}
