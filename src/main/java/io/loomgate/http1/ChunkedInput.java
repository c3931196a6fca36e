package io.loomgate.http1;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A chunked body (RFC 9112 section 7.1) as its data: chunk sizes read by {@link BodyLengths},
 * chunk data that must end in CRLF, then trailers, read under the message's {@link HeadLimits} and
 * dropped. It ends at the last chunk's empty line; a framing error is an {@link Http1Exception},
 * and a source that ends early an {@link EOFException}.
 */
public final class ChunkedInput extends InputStream {

    private final LineInput in;
    private final HeadLimits limits;
    private long left;
    private boolean inChunk;
    private boolean ended;

    public ChunkedInput(LineInput in, HeadLimits limits) {
        this.in = in;
        this.limits = limits;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (ended) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        if (left == 0 && !nextChunk()) {
            return -1;
        }
        int n = in.read(b, off, (int) Math.min(len, left));
        if (n < 0) {
            throw new EOFException("the connection closed in the middle of a chunk");
        }
        left -= n;
        return n;
    }

    /** Ends the previous chunk's data, reads the next size; false after the last chunk and its trailers. */
    private boolean nextChunk() throws IOException {
        if (inChunk && (in.read() != '\r' || in.read() != '\n')) {
            throw new Http1Exception("chunk data not followed by CRLF");
        }
        inChunk = true;
        String line = in.readLine();
        if (line == null) {
            throw new EOFException("the connection closed before a chunk size");
        }
        left = BodyLengths.chunkSize(line);
        if (left > 0) {
            return true;
        }
        FieldLines.read(in, limits, FieldLines.CHECKED_AND_DROPPED);
        ended = true;
        return false;
    }

    /** The bytes the current chunk still declares: what the client has said it will send next. */
    public long chunkLeft() {
        return left;
    }

    /** True once the last chunk and its trailers were read. */
    public boolean ended() {
        return ended;
    }
}
