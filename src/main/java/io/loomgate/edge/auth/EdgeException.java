package io.loomgate.edge.auth;

/** An edge setting loomgate cannot use (an API key file, a JWKS file); the message names the file and is one line. */
public final class EdgeException extends Exception {

    public EdgeException(String message) {
        super(message, null, false, false);
    }
}
