package io.loomgate.client;

import io.loomgate.http.Headers;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;

/**
 * An answer's body on an HTTP/2 stream to an upstream: DATA as the stream's reader hands it over,
 * then its trailers. Read to its end, the stream is done; closed before, the stream is reset with
 * {@code CANCEL} (the upstream sees the request abandoned, and the connection goes on for the
 * other streams on it).
 */
final class H2ResponseBody extends UpstreamBody {

    private final H2Session session;
    private final H2Call call;
    private long delivered;
    private boolean ended;
    private boolean closed;

    H2ResponseBody(H2Session session, H2Call call, boolean empty) {
        this.session = session;
        this.call = call;
        this.ended = empty;
        if (empty) {
            session.done(call);
        }
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
        int n = call.body.read(b, off, len);
        if (n < 0) {
            ended = true;
            session.done(call);
        } else {
            delivered += n;
        }
        return n;
    }

    @Override
    public void streaming(Duration idle) {
        // each read already waits at most the upstream's idle timeout (the stream body's own clock)
    }

    @Override
    public boolean hasBufferedBytes() {
        return !ended && call.body.hasData();
    }

    /** Never called: an HTTP/2 {@code 101} is refused as malformed ({@link H2Answers}), so no stream's answer switches protocols. */
    @Override
    public OutputStream tunnel() {
        throw new IllegalStateException("a tunnel asked of an HTTP/2 stream, whose answer cannot be a 101");
    }

    @Override
    public boolean ended() {
        return ended;
    }

    @Override
    public long delivered() {
        return delivered;
    }

    @Override
    public Headers trailers() {
        return ended ? call.trailers() : Headers.EMPTY;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        call.body.discard();
        if (!ended) {
            session.cancel(call);   // RST_STREAM CANCEL: the rest is not wanted
        }
    }
}
