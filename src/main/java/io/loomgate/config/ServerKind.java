package io.loomgate.config;

/** Which implementation of the JDK's server API serves: loomgate's own, or the JDK's. */
public enum ServerKind {
    /** loomgate's server: a virtual thread per connection, the strict codec, cancellation when a client hangs up. */
    LOOMGATE,
    /** The JDK's {@code HttpServer}. */
    JDK;

    /** {@code loomgate} or {@code jdk}, as the flag says it. */
    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
