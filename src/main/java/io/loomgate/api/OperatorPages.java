package io.loomgate.api;

/**
 * Where the operator pages ({@code /metrics}, {@code /dashboard}, {@code /debug/*} and the route
 * index {@code /}) are served. The probes ({@code /health}, {@code /livez}, {@code /readyz}) say
 * nothing about anyone's requests and stay wherever a load balancer needs them.
 */
public enum OperatorPages {
    /** On the main port, beside the routes: no admin port, and no route checks who calls (the demo). */
    MAIN,
    /** Only on the admin port ({@code --admin-port}), which binds loopback unless {@code --admin-host} says otherwise. */
    ADMIN,
    /**
     * Nowhere: the route file authenticates callers and there is no admin port, so pages that show
     * every caller's recent requests must not be on the public port.
     */
    OFF;

    /** Where the pages go for this listener set-up. */
    public static OperatorPages of(boolean adminPort, boolean authenticates) {
        return adminPort ? ADMIN : authenticates ? OFF : MAIN;
    }

    /** The line printed at startup, saying where they are. */
    public String describe() {
        return switch (this) {
            case MAIN -> "operator pages (/metrics, /dashboard, /debug/requests, /) are on the main port";
            case ADMIN -> "operator pages (/metrics, /dashboard, /debug/requests, /) are only on the admin port";
            case OFF -> "operator pages (/metrics, /dashboard, /debug/requests, /) are off: the route file checks who"
                    + " calls, so they stay off the public port; give --admin-port to serve them there";
        };
    }
}
