package io.loomgate.edge.pipeline;

import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * One request and its answer as a listener holds them: the pipeline's only view of the wire. The
 * server adapter implements it over its exchange; tests implement it in memory.
 */
public interface Exchange extends AutoCloseable {

    String method();

    /** The request target as sent. */
    URI uri();

    /** {@code HTTP/1.1} */
    String protocol();

    Headers headers();

    /** The connection's peer; null when there is none (a test without a socket). */
    InetSocketAddress remote();

    /** The request body, as it arrives. */
    InputStream body();

    /**
     * Writes the answer; for {@code HEAD} only its head, with the length a GET would have.
     *
     * @throws io.loomgate.http.BodyAborted when a streamed body's source failed after the head was
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

    /** Ends the exchange; the listener may then reuse the connection. Never throws. */
    @Override
    void close();
}
