package io.loomgate.http1;

import java.io.IOException;

/**
 * A message broke HTTP/1.1's syntax or framing rules (RFC 9112). The message says what was wrong,
 * in loomgate's words (a value from the wire appears only shortened and printable), and is safe to
 * show. A server answers such a request with {@link #status()} and closes the connection: once the
 * framing is in doubt, nothing after it can be trusted to be a request. A client treats such an
 * answer as malformed.
 */
public final class Http1Exception extends IOException {

    private final int status;

    /** @param status what a server answers: 400, or 414, 431, 501, 505 */
    public Http1Exception(int status, String why) {
        super(why, null);
        this.status = status;
    }

    /** A 400. */
    public Http1Exception(String why) {
        this(400, why);
    }

    public int status() {
        return status;
    }
}
