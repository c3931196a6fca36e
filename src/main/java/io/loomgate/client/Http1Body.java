package io.loomgate.client;

import io.loomgate.http1.ChunkedInput;
import io.loomgate.http1.FixedInput;
import io.loomgate.http1.HeadLimits;
import io.loomgate.http1.Http1Exception;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;

/**
 * A response body read as its {@link Framing} says: empty, {@code Content-Length} bytes, chunked,
 * or until the connection closes, decoded by the same codec the server reads requests with
 * ({@link FixedInput}, {@link ChunkedInput}): chunk sizes are hex digits only (at most 15 of them),
 * chunk data must end in CRLF, trailers are read under the same rules and limits as the head, then
 * dropped.
 *
 * <p>Read to its end, the body hands its connection to {@code done}, to be pooled only if the
 * answer allowed it and not one byte came after the answer's end. Any failure, a framing error, a
 * close before the end, a timeout, closes the connection and is thrown to the reader; closing the
 * body before its end does the same, which aborts the exchange.
 */
public final class Http1Body extends UpstreamBody {

    /** Told once, when the body is finished with. */
    interface Done {
        void finished(Http1Connection connection, boolean reusable);
    }

    private static final System.Logger LOG = System.getLogger("loomgate");

    private final Http1Connection connection;
    private final Done done;
    private final Framing.Kind kind;
    private final boolean reusable;
    /** The body as the codec decodes it: Content-Length bytes, chunked, or the connection's bytes until it closes. */
    private final InputStream decoded;
    private boolean ended;
    private boolean released;
    private long delivered;

    private Http1Body(Http1Connection connection, Framing framing, boolean reusable, HeadLimits budget, Done done) {
        this.connection = connection;
        this.kind = framing.kind();
        this.reusable = reusable;
        this.done = done;
        this.decoded = switch (framing.kind()) {
            case LENGTH -> new FixedInput(connection.input(), framing.length());
            case CHUNKED -> new ChunkedInput(connection.input(), budget);
            case UNTIL_CLOSE -> connection.input().rest();
            case EMPTY -> InputStream.nullInputStream();
        };
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
            int n = decoded.read(b, off, len);
            if (n < 0) {
                end();
                return -1;
            }
            delivered += n;
            if (decoded instanceof FixedInput fixed && fixed.left() == 0) {
                end();   // the last byte is read: the connection can go back at once
            }
            return n;
        } catch (Http1Exception e) {
            fail();
            throw new MalformedResponse(e.getMessage());
        } catch (EOFException e) {
            fail();
            throw new EOFException(decoded instanceof FixedInput fixed
                    ? "the upstream closed the connection " + fixed.left() + " bytes short of its Content-Length"
                    : "the upstream closed the connection in the middle of a chunk");
        } catch (IOException | RuntimeException e) {
            fail();
            throw e;
        }
    }

    /**
     * From now on, the rest of the body may take as long as it likes, so long as no more than
     * {@code idle} passes between two bytes: a proxied body flows at the pace of both ends.
     */
    public void streaming(java.time.Duration idle) {
        if (!ended) {
            connection.timeouts(System.nanoTime() + UNBOUNDED.toNanos(), idle);
        }
    }

    private static final java.time.Duration UNBOUNDED = java.time.Duration.ofDays(3650);

    /** True when some of the body has arrived already, so a read will not wait. */
    public boolean hasBufferedBytes() {
        return !ended && connection.buffered() > 0;
    }

    /** After a {@code 101}: the upstream connection's output, for the new protocol's bytes. */
    public OutputStream tunnel() {
        return connection.tunnel();
    }

    /** True when the body is over (one without bytes is over as it opens). */
    public boolean ended() {
        return ended;
    }

    /** Bytes handed to the reader so far. */
    public long delivered() {
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
