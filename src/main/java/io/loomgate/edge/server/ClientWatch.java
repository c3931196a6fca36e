package io.loomgate.edge.server;

/**
 * What loomgate's server adds to an exchange: word that the client closed its connection while the
 * handler worked, which the JDK's server cannot give. The gateway cancels the request's work on it.
 */
public interface ClientWatch {

    /** Runs {@code hook} once, on the connection's thread, if the client goes before the exchange ends (at once if it has). */
    void onClientGone(Runnable hook);
}
