package io.loomgate.edge.server;

import io.loomgate.http1.Buffers;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One answer's bytes on their way to the connection, buffered in a shared 8 KiB buffer
 * ({@link Buffers}) that goes back when the answer ends: a busy server makes no buffer per answer.
 * Writes after {@link #release()} fail.
 */
final class WireOutput extends OutputStream {

    private final OutputStream out;
    private byte[] buf = Buffers.take();
    private int count;

    WireOutput(OutputStream out) {
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        if (count == buffer().length) {
            drain();
        }
        buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        byte[] mine = buffer();
        if (len >= mine.length) {
            drain();
            out.write(b, off, len);
            return;
        }
        if (len > mine.length - count) {
            drain();
        }
        System.arraycopy(b, off, mine, count, len);
        count += len;
    }

    @Override
    public void flush() throws IOException {
        drain();
        out.flush();
    }

    /** Gives the buffer back, unflushed bytes dropped: the answer is over, or the connection is. */
    void release() {
        Buffers.give(buf);
        buf = null;
        count = 0;
    }

    private byte[] buffer() throws IOException {
        if (buf == null) {
            throw new IOException("the answer has ended");
        }
        return buf;
    }

    private void drain() throws IOException {
        if (count > 0) {
            out.write(buffer(), 0, count);
            count = 0;
        }
    }
}
