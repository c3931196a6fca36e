package io.loomgate.upstream.http;

import io.loomgate.http1.BodyLengths;
import io.loomgate.http1.FieldLines;
import io.loomgate.http1.HeadLimits;
import io.loomgate.http1.Http1Exception;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.util.HashMap;

/**
 * A response body read as its {@link Framing} says: empty, {@code Content-Length} bytes, chunked,
 * or until the connection closes. Chunk sizes are hex digits only (at most 15 of them), chunk data
 * must end in CRLF, trailers are read under the same rules and limits as the head, then dropped.
 *
 * <p>Read to its end, the body hands its connection to {@code done}, to be pooled only if the
 * answer allowed it and not one byte came after the answer's end. Any failure, a framing error, a
 * close before the end, a timeout, closes the connection and is thrown to the reader; closing the
 * body before its end does the same, which aborts the exchange.
 */
final class Http1Body extends InputStream {

    /** Told once, when the body is finished with. */
    interface Done {
        void finished(Http1Connection connection, boolean reusable);
    }

    private static final System.Logger LOG = System.getLogger("loomgate");

    private final Http1Connection connection;
    private final Done done;
    private final Framing.Kind kind;
    private final boolean reusable;
    private final HeadLimits budget;
    private long left;
    private boolean inChunk;
    private boolean ended;
    private boolean released;
    private long delivered;

    private Http1Body(Http1Connection connection, Framing framing, boolean reusable, HeadLimits budget, Done done) {
        this.connection = connection;
        this.kind = framing.kind();
        this.reusable = reusable;
        this.budget = budget;
        this.done = done;
        this.left = framing.kind() == Framing.Kind.LENGTH ? framing.length() : 0;
    }

    /**
     * @param reusable whether the connection may be pooled once the body has ended cleanly
     * @param budget   what the answer's head left for its trailers
     */
    static Http1Body open(Http1Connection connection, Framing framing, boolean reusable, HeadLimits budget, Done done) {
        Http1Body body = new Http1Body(connection, framing, reusable, budget, done);
        if (framing.kind() == Framing.Kind.EMPTY || (framing.kind() == Framing.Kind.LENGTH && framing.length() == 0)) {
            body.end();
        }
        return body;
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
        try {
            if (kind == Framing.Kind.CHUNKED && left == 0 && !nextChunk()) {
                return -1;
            }
            int n = connection.read(b, off, kind == Framing.Kind.UNTIL_CLOSE ? len : (int) Math.min(len, left));
            if (n < 0) {
                if (kind == Framing.Kind.UNTIL_CLOSE) {
                    end();
                    return -1;
                }
                throw new EOFException(kind == Framing.Kind.LENGTH
                        ? "the upstream closed the connection " + left + " bytes short of its Content-Length"
                        : "the upstream closed the connection in the middle of a chunk");
            }
            delivered += n;
            if (kind != Framing.Kind.UNTIL_CLOSE) {
                left -= n;
                if (left == 0 && kind == Framing.Kind.LENGTH) {
                    end();
                }
            }
            return n;
        } catch (IOException | RuntimeException e) {
            fail();
            throw e;
        }
    }

    /** Ends the previous chunk's data, reads the next size; false after the last chunk and its trailers. */
    private boolean nextChunk() throws IOException {
        try {
            if (inChunk && (connection.read() != '\r' || connection.read() != '\n')) {
                throw new MalformedResponse("chunk data not followed by CRLF");
            }
            inChunk = true;
            left = BodyLengths.chunkSize(connection.readLine());
            if (left > 0) {
                return true;
            }
            FieldLines.read(connection.input(), budget, (name, value) -> { });
        } catch (Http1Exception e) {
            throw new MalformedResponse(e.getMessage());
        }
        end();
        return false;
    }

    /**
     * From now on, the rest of the body may take as long as it likes, so long as no more than
     * {@code idle} passes between two bytes: a proxied body flows at the pace of both ends.
     */
    void streaming(java.time.Duration idle) {
        if (!ended) {
            connection.timeouts(System.nanoTime() + UNBOUNDED.toNanos(), idle);
        }
    }

    private static final java.time.Duration UNBOUNDED = java.time.Duration.ofDays(3650);

    /** True when some of the body has arrived already, so a read will not wait. */
    boolean hasBufferedBytes() {
        return !ended && connection.buffered() > 0;
    }

    /** Bytes handed to the reader so far. */
    long delivered() {
        return delivered;
    }

    @Override
    public int available() {
        return 0;
    }

    private void end() {
        ended = true;
        int extra = connection.buffered();
        if (reusable && extra > 0) {
            LOG.log(Level.DEBUG, () -> connection.key + ": " + extra + " bytes came after the end of an answer; connection closed");
        }
        release(reusable && extra == 0);
    }

    private void fail() {
        ended = true;
        connection.close();
        release(false);
    }

    private void release(boolean pool) {
        if (!released) {
            released = true;
            done.finished(connection, pool);
        }
    }

    /** Before the end, aborts: the connection closes, and the upstream sees it. */
    @Override
    public void close() {
        if (!ended) {
            fail();
        }
    }
}
