package io.loomgate.http;

import java.io.IOException;

/**
 * Thrown by a {@link Response.Writer} when the source of a streamed body failed after the status
 * and headers were sent: the upstream's body broke off, was malformed, or stalled. The server then
 * cuts the client's response off (closes its connection without the last chunk, or short of its
 * Content-Length), so the client can never take a partial answer for a complete one.
 */
public final class BodyAborted extends IOException {

    private final long written;

    /**
     * @param why     what happened to the source, safe to log
     * @param written bytes of the body already sent to the client
     */
    public BodyAborted(String why, long written, Throwable cause) {
        super(why, cause);
        this.written = written;
    }

    /** Bytes of the body the client got before the cut. */
    public long written() {
        return written;
    }
}
