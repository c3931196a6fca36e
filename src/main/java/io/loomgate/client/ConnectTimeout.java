package io.loomgate.client;

import java.io.IOException;

/** The upstream did not accept a connection, or finish its TLS handshake, in time: over HTTP/1.1 or HTTP/2. */
public final class ConnectTimeout extends IOException {

    ConnectTimeout() {
        super("connect timed out", null);
    }
}
