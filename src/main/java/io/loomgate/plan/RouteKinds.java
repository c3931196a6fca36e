package io.loomgate.plan;

/** The readers of the three kinds of route, for {@code io.loomgate.Modules} to register. */
public final class RouteKinds {

    /** {@code "policy"} naming a registered fan-out policy. */
    public static final RouteKindReader FAN_OUT = new FanOutReader();
    /** {@code "policy": "proxy"}. */
    public static final RouteKindReader PROXY = new ProxyReader();
    /** {@code "policy": "compose"}. */
    public static final RouteKindReader COMPOSE = new ComposeRouteReader();

    private RouteKinds() {
    }
}
