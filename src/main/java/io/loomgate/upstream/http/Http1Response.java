package io.loomgate.upstream.http;

import java.io.IOException;
import java.util.Optional;

/**
 * An upstream's response: its checked head, how its body is framed, and the body as a stream.
 * Reading the body to its end gives the connection back to the pool when it may be reused; closing
 * it earlier aborts the exchange and closes the connection.
 */
record Http1Response(ResponseHead head, Framing framing, Http1Body body) implements AutoCloseable {

    int status() {
        return head.status();
    }

    Optional<String> header(String lowerName) {
        return head.first(lowerName);
    }

    @Override
    public void close() throws IOException {
        body.close();
    }
}
