package io.loomgate.client;

import java.io.IOException;
import java.util.Optional;

/**
 * An upstream's response, over HTTP/1.1 or HTTP/2: its checked head, how its body is framed, and the
 * body as a stream. Reading the body to its end finishes the exchange (an HTTP/1.1 connection goes
 * back to the pool when it may be reused); closing it earlier abandons it. A request body may still
 * be going ({@link Sending}): a proxy awaits it before the client's connection reads anything else.
 */
public record UpstreamResponse(ResponseHead head, Framing framing, UpstreamBody body, Sending sender) implements AutoCloseable {

    /** A request body still being sent while the answer is read. */
    public interface Sending {
        /** Waits (bounded) until the client's body is no longer read here. */
        void await();
    }

    public UpstreamResponse(ResponseHead head, Framing framing, UpstreamBody body) {
        this(head, framing, body, BodySender.NONE);
    }

    public int status() {
        return head.status();
    }

    public Optional<String> header(String lowerName) {
        return head.first(lowerName);
    }

    @Override
    public void close() throws IOException {
        body.close();
    }
}
