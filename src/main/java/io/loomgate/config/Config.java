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
 * @param watch  reload when the route file, or a file it or the flags name, changes ({@code --watch})
 */
public record Config(ServerOptions server, ServiceOptions services, ObservabilityOptions observability,
                     EdgeOptions edge, Optional<Path> routes, Role role, boolean watch) {

    public Config {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(services, "services");
        Objects.requireNonNull(observability, "observability");
        Objects.requireNonNull(edge, "edge");
        Objects.requireNonNull(routes, "routes");
        Objects.requireNonNull(role, "role");
    }

    /** The same, serving {@code file}: how {@code loomgate check} checks each file it is given. */
    public Config withRoutes(Path file) {
        return new Config(server, services, observability, edge, Optional.of(file), role, watch);
    }
}
