package io.loomgate.edge.server;

import io.loomgate.http2.FrameOutput;
import java.io.IOException;
import java.io.OutputStream;

/**
 * An HTTP/2 answer's body as DATA frames: written bytes gathered up to one frame (16 KiB, the
 * smallest frame size a client may allow), sent as the windows allow ({@link FrameOutput#data}), and
 * ended by {@link #close} with END_STREAM. The buffer is taken on the first write that needs one, no
 * larger than the declared length: a small answer written whole goes out without one (a 16 KiB array
 * for each stream was more than half of what the proxy over HTTP/2 allocated). A body longer or
 * shorter than the {@code content-length} the head declared is refused: the stream is then reset,
 * never ended as if whole.
 */
final class H2DataOutput extends OutputStream {

    /** The most gathered before it goes as one DATA frame. */
    private static final int FRAME = 16_384;

    private final H2Connection connection;
    private final H2Stream stream;
    private final int id;
    private final long declared;
    private byte[] buffer;
    private int count;
    private long sent;
    private boolean closed;
    private boolean broken;
    /** END_STREAM went. */
    private boolean ended;

    H2DataOutput(H2Connection connection, H2Stream stream, long declared) {
        this.connection = connection;
        this.stream = stream;
        this.id = stream.id();
        this.declared = declared;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("the answer's body was closed");
        }
        if (declared > 0 && sent + count + len > declared) {
            throw new IOException("more body than the " + declared + " octets declared");
        }
        boolean restWhole = count == 0 && len > 0 && declared > 0 && sent + len == declared;
        if (count + len <= FRAME && !restWhole) {
            if (buffer == null) {
                buffer = new byte[declared > 0 ? (int) Math.min(FRAME, declared - sent) : FRAME];
            }
            System.arraycopy(b, off, buffer, count, len);
            count += len;
            return;
        }
        drain(false);   // too much to gather, or the rest of the body whole: it goes as written, without a copy
        boolean end = declared > 0 && sent + len == declared;
        send(b, off, len, end);
        ended = end;
    }

    /** A streamed answer's bytes go out as they come; with none yet, its head does. */
    @Override
    public void flush() throws IOException {
        if (closed || ended) {
            return;
        }
        if (count > 0) {
            drain(false);
        } else {
            connection.out().flush();
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (ended) {
            return;   // the last of a declared length went with END_STREAM already
        }
        if (broken) {
            throw new IOException("a write of the answer's body failed: it is not ended as if whole");
        }
        if (declared > 0 && sent + count != declared) {
            throw new IOException((sent + count) + " octets of body where " + declared + " were declared");
        }
        drain(true);
    }

    /**
     * Ends the body with trailers: what is gathered goes as DATA without END_STREAM, then {@code block}
     * (the trailer fields) in a HEADERS frame that ends the stream.
     */
    void endWith(java.util.List<io.loomgate.http2.hpack.HeaderField> block) throws IOException {
        if (closed || ended || broken) {
            throw new IOException("the answer's body has ended: no trailers after it");
        }
        if (declared > 0) {
            throw new IOException("trailers follow a body of unknown length (0), not one of " + declared + " octets");
        }
        closed = true;
        if (count > 0) {
            send(buffer, 0, count, false);
            count = 0;
        }
        try {
            connection.out().headers(id, block, true, stream::completed);
        } catch (IOException | RuntimeException e) {
            broken = true;
            throw e;
        }
        ended = true;
    }

    /** Sends what is gathered; the last octets of a declared length end the stream at once, close or not. */
    private void drain(boolean last) throws IOException {
        boolean end = last || (declared > 0 && sent + count == declared);
        if (count > 0 || end) {
            send(buffer, 0, count, end);
            count = 0;
            ended = end;
        }
    }

    /** Sends, and counts what went; a write that failed leaves the body broken for good. */
    private void send(byte[] b, int off, int len, boolean last) throws IOException {
        try {
            connection.out().data(id, b, off, len, last, last ? stream::completed : null);
        } catch (IOException | RuntimeException e) {
            broken = true;
            throw e;
        }
        sent += len;
    }
}
