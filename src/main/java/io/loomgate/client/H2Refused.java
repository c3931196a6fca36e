package io.loomgate.client;

import java.io.IOException;

/**
 * The upstream did not process a request sent on HTTP/2 (RST_STREAM REFUSED_STREAM, a stream above
 * its GOAWAY's last, or a connection that took no new streams): RFC 9113 section 8.7 lets it be sent again.
 */
final class H2Refused extends IOException {

    H2Refused(String message) {
        super(message);
    }
}
