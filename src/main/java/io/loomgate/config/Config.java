package io.loomgate.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything loomgate was started with, validated. Built by {@link CommandLine} from flags and
 * environment variables; tests build it the same way.
 *
 * @param routes the route file ({@code --routes}); empty for the role's built-in routes
 * @param role   gateway, or the bundled backend
 */
public record Config(ServerOptions server, ServiceOptions services, ObservabilityOptions observability,
                     EdgeOptions edge, Optional<Path> routes, Role role) {

    public Config {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(services, "services");
        Objects.requireNonNull(observability, "observability");
        Objects.requireNonNull(edge, "edge");
        Objects.requireNonNull(routes, "routes");
        Objects.requireNonNull(role, "role");
    }
}
