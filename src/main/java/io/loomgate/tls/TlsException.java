package io.loomgate.tls;

/** A certificate, key or keystore loomgate cannot use; the message names the file and is one line. */
public final class TlsException extends Exception {

    public TlsException(String message) {
        super(message, null, false, false);
    }
}
