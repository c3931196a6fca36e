package io.loomgate.config;

import java.util.Objects;

/**
 * Everything loomgate was started with, validated. Built by {@link CommandLine} from flags and
 * environment variables; tests build it the same way.
 */
public record Config(ServerOptions server, ServiceOptions services, ObservabilityOptions observability) {

    public Config {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(services, "services");
        Objects.requireNonNull(observability, "observability");
    }
}
