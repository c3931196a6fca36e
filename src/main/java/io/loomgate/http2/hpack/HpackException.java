package io.loomgate.http2.hpack;

import java.io.IOException;

/**
 * A header block that cannot be decoded, or breaks a bound: in HTTP/2 a connection error of type
 * {@code COMPRESSION_ERROR} (RFC 9113 section 4.3), since the two sides' tables may now differ.
 */
public final class HpackException extends IOException {

    public HpackException(String message) {
        super(message);
    }
}
