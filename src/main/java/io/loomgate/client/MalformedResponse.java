package io.loomgate.client;

import java.io.IOException;

/**
 * An upstream's answer broke HTTP/1.1's framing or syntax rules (RFC 9112). The exchange fails, the
 * connection is closed, never pooled, and the client gets a 502 (or, once a streamed answer has
 * begun, a response cut off short). The message says what was wrong and is safe to show a client.
 */
public final class MalformedResponse extends IOException {

    public MalformedResponse(String why) {
        super("malformed answer: " + why, null);
    }
}
