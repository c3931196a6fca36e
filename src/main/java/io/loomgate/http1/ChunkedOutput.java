package io.loomgate.http1;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes a body chunked: each write a chunk, {@link #finish()} the last chunk. Closing the stream
 * does not finish it: a body whose source failed must be cut off, never ended as if complete.
 */
public final class ChunkedOutput extends OutputStream {

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

    private final OutputStream out;
    private boolean finished;

    public ChunkedOutput(OutputStream out) {
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (finished) {
            throw new IOException("the chunked body was already finished");
        }
        if (len == 0) {
            return;
        }
        out.write((Integer.toHexString(len) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(b, off, len);
        out.write(CRLF);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** Writes the last chunk, once. */
    public void finish() throws IOException {
        if (!finished) {
            finished = true;
            out.write(LAST_CHUNK);
            out.flush();
        }
    }

    public boolean finished() {
        return finished;
    }
}
