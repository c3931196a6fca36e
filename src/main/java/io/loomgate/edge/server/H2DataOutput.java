package io.loomgate.edge.server;

import java.io.IOException;
import java.io.OutputStream;

/**
 * An HTTP/2 answer's body as DATA frames: written bytes gathered up to one frame (16 KiB, the
 * smallest frame size a client may allow), sent as the windows allow ({@link H2Out#data}), and
 * ended by {@link #close} with END_STREAM. A body longer or shorter than the {@code content-length}
 * the head declared is refused: the stream is then reset, never ended as if whole.
 */
final class H2DataOutput extends OutputStream {

    private final H2Connection connection;
    private final H2Stream stream;
    private final int id;
    private final long declared;
    private final byte[] buffer = new byte[16_384];
    private int count;
    private long sent;
    private boolean closed;
    private boolean broken;

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
        if (count + len <= buffer.length) {
            System.arraycopy(b, off, buffer, count, len);
            count += len;
            return;
        }
        drain(false);
        send(b, off, len, false);
    }

    @Override
    public void flush() throws IOException {
        if (!closed) {
            drain(false);   // a streamed answer's bytes go out as they come
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (broken) {
            throw new IOException("a write of the answer's body failed: it is not ended as if whole");
        }
        if (declared > 0 && sent + count != declared) {
            throw new IOException((sent + count) + " octets of body where " + declared + " were declared");
        }
        drain(true);
    }

    private void drain(boolean last) throws IOException {
        if (count > 0 || last) {
            send(buffer, 0, count, last);
            count = 0;
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
