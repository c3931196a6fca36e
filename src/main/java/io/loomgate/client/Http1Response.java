package io.loomgate.client;

import java.io.IOException;
import java.util.Optional;

/**
 * An upstream's response: its checked head, how its body is framed, and the body as a stream.
 * Reading the body to its end gives the connection back to the pool when it may be reused; closing
 * it earlier aborts the exchange and closes the connection. A request body may still be going
 * ({@link BodySender}): a proxy awaits it before the client's connection reads anything else.
 */
public record Http1Response(ResponseHead head, Framing framing, Http1Body body, BodySender sender) implements AutoCloseable {

    public Http1Response(ResponseHead head, Framing framing, Http1Body body) {
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
