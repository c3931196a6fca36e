package io.loomgate.edge.listener;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The response body stream of a streamed answer, put in the exchange's place
 * ({@code HttpExchange.setStreams}) so the answer can be cut off: once {@link #cutOff()} is called,
 * closing it fails instead of finishing the response, and the JDK then closes the connection, without
 * the last chunk or short of the announced length. The client sees a broken answer, never a
 * complete-looking one.
 */
final class CutOffOutput extends FilterOutputStream {

    private boolean cut;

    CutOffOutput(OutputStream out) {
        super(out);
    }

    /** The body will not be finished: closing must not write the end of the response. */
    void cutOff() {
        cut = true;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
        if (cut) {
            throw new IOException("the response was cut off");
        }
        out.close();
    }
}
