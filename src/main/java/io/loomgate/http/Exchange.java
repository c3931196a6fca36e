package io.loomgate.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * One request and its answer as a listener holds them: the gateway's only view of the wire, and the
 * one seam between a transport and the pipeline. Loomgate's server implements it itself, over its
 * connection; the JDK's server is adapted to it ({@code edge.listener.ApiExchange}); tests implement
 * it in memory.
 */
public interface Exchange extends AutoCloseable {

    String method();

    /** The request target as sent. */
    URI uri();

    /** {@code HTTP/1.1}, {@code HTTP/1.0}, or {@code HTTP/2.0} for a {@link #stream}; as the request said, on the JDK's server. */
    String protocol();

    /**
     * Whether this exchange is one stream of a multiplexed (HTTP/2) connection, framed by that
     * protocol, and not a request line that only claims its version.
     */
    default boolean stream() {
        return false;
    }

    Headers headers();

    /** {@link System#nanoTime()} when the request's head began to arrive: its deadline counts from here. */
    long arrivalNanos();

    /** The connection's peer; null when there is none (a test without a socket). */
    InetSocketAddress remote();

    /** The request body, as it arrives. */
    InputStream body();

    /**
     * Writes the answer; for {@code HEAD} only its head, with the length a GET would have.
     *
     * @throws BodyAborted when a streamed body's source failed after the head was
     *                                      sent; the answer was cut off
     * @throws IOException                  when the client went away
     */
    void write(Response answer, boolean head) throws IOException;

    /**
     * Runs {@code hook} if the client closes its connection before the answer is written, on
     * another thread; a listener that cannot tell (the JDK's) never runs it.
     */
    default void onClientGone(Runnable hook) {
    }

    /**
     * The body bytes the client has declared it will send next and not sent yet (the rest of the
     * {@code Content-Length}, or of the current chunk); 0 when the listener cannot tell (the JDK's).
     */
    default long declaredBodyLeft() {
        return 0;
    }

    /**
     * Sends an interim answer ({@code 102}, {@code 103}: a {@code 1xx} but {@code 100} and
     * {@code 101}) with {@code fields} ahead of the final one, where the server and the protocol can:
     * loomgate's server, to an HTTP/1.1 or HTTP/2 client, before the final head. Otherwise it is
     * dropped (the JDK's server, whose API has no way to send one; an HTTP/1.0 client).
     */
    default void interim(int status, Headers fields) throws IOException {
    }

    /** Ends the exchange; the listener may then reuse the connection. Never throws. */
    @Override
    void close();
}
