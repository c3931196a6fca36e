package io.loomgate.upstream.http;

/**
 * What one answer's head may still use: bytes and header fields, shared by its interim heads, its
 * final head and its chunked trailers, so no part of an answer can grow memory without bound.
 */
final class HeadBudget {

    /** The longest line of a head, a chunk size or a trailer, without its line end. */
    static final int MAX_LINE = 8 * 1024;
    /** All the lines of one answer's heads and trailers together. */
    static final int MAX_BYTES = 64 * 1024;
    /** Header and trailer fields of one answer, interim heads included. */
    static final int MAX_FIELDS = 100;
    /** Interim (1xx) heads skipped before the final one. */
    static final int MAX_INTERIM = 8;

    private int bytes = MAX_BYTES;
    private int fields = MAX_FIELDS;
    private int interim = MAX_INTERIM;

    /** Counts one line of {@code length} bytes (its line end included). */
    void line(int length) throws MalformedResponse {
        bytes -= length;
        if (bytes < 0) {
            throw new MalformedResponse("its head and trailers are longer than " + MAX_BYTES + " bytes");
        }
    }

    void field() throws MalformedResponse {
        if (--fields < 0) {
            throw new MalformedResponse("more than " + MAX_FIELDS + " header and trailer fields");
        }
    }

    void interim() throws MalformedResponse {
        if (--interim < 0) {
            throw new MalformedResponse("more than " + MAX_INTERIM + " interim (1xx) answers");
        }
    }
}
