package io.loomgate.config;

import java.util.Locale;

/**
 * What a loomgate process is for, which decides its built-in routes and default port:
 * {@code loomgate [flags]} is the gateway (port 8080), {@code loomgate backend [flags]} the bundled
 * backend that serves the simulated services over HTTP (port 9090).
 */
public enum Role {
    GATEWAY("8080"),
    BACKEND("9090");

    private final String defaultPort;

    Role(String defaultPort) {
        this.defaultPort = defaultPort;
    }

    public String defaultPort() {
        return defaultPort;
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
