package io.loomgate.edge.server;

/**
 * What loomgate's server adds to an exchange, which the JDK's server cannot give: word that the
 * client closed its connection while the handler worked (the gateway cancels the request's work on
 * it), and how much body the client has declared it will send next.
 */
public interface LoomgateExchange {

    /** Runs {@code hook} once, on the connection's thread, if the client goes before the exchange ends (at once if it has). */
    void onClientGone(Runnable hook);

    /** The body bytes declared and not yet read: the rest of the {@code Content-Length} or of the current chunk. */
    long declaredBodyLeft();

    /**
     * Whether this request may switch protocols: an HTTP/1.1 {@code GET} without a body that asks
     * to upgrade. After a {@code 101}, its request body is the connection's bytes in the new
     * protocol, and its response body writes them.
     */
    boolean canSwitchProtocols();
}
