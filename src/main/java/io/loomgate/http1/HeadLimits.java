package io.loomgate.http1;

/**
 * What one message's head (and its chunked trailers) may still use: the longest line, all the
 * lines' bytes, the fields, and the interim (1xx) heads before a final one, so no part of a message
 * can grow memory without bound. One instance per message; {@link #forResponse()} for what a client
 * reads, {@link #forRequest()} for what a server reads.
 */
public final class HeadLimits {

    /** The longest line of a head, a chunk size or a trailer, without its line end. */
    public static final int MAX_LINE = 8 * 1024;
    /** All the lines of an answer's heads and trailers together. */
    public static final int MAX_RESPONSE_BYTES = 64 * 1024;
    /** A request's header fields and trailers together, its request line aside (nginx's large buffers hold 4 of 8 KB). */
    public static final int MAX_REQUEST_BYTES = 16 * 1024;
    /** Header and trailer fields of one message, interim heads included. */
    public static final int MAX_FIELDS = 100;
    /** Interim (1xx) heads skipped before the final one. */
    public static final int MAX_INTERIM = 8;

    private final boolean request;
    private int bytes;
    private int fields = MAX_FIELDS;
    private int interim = MAX_INTERIM;

    private HeadLimits(boolean request, int bytes) {
        this.request = request;
        this.bytes = bytes;
    }

    public static HeadLimits forResponse() {
        return new HeadLimits(false, MAX_RESPONSE_BYTES);
    }

    public static HeadLimits forRequest() {
        return new HeadLimits(true, MAX_REQUEST_BYTES);
    }

    /**
     * The longest field line: {@link #MAX_LINE} in an answer; in a request, the whole budget, so one
     * large header (a token, a cookie) is held to the same 16 KiB as all of them together.
     */
    public int maxLine() {
        return request ? MAX_REQUEST_BYTES : MAX_LINE;
    }

    /** Counts one field line (or trailer line) of {@code length} bytes, its line end included. */
    public void line(int length) throws Http1Exception {
        bytes -= length;
        if (bytes < 0) {
            throw request ? tooLarge() : new Http1Exception("its head and trailers are longer than " + MAX_RESPONSE_BYTES + " bytes");
        }
    }

    public void field() throws Http1Exception {
        if (--fields < 0) {
            throw request ? tooLarge() : new Http1Exception("more than " + MAX_FIELDS + " header and trailer fields");
        }
    }

    public void interim() throws Http1Exception {
        if (--interim < 0) {
            throw new Http1Exception("more than " + MAX_INTERIM + " interim (1xx) answers");
        }
    }

    private static Http1Exception tooLarge() {
        return new Http1Exception(431, "request headers are limited to " + MAX_FIELDS + " fields and " + MAX_REQUEST_BYTES
                + " bytes");
    }
}
