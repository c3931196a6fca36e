package io.loomgate.upstream.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A client's request body on its way upstream. A read that fails is the client's fault (a body cut
 * short, a broken chunk), not the upstream's: it is marked, so the proxy answers 400, not 502.
 */
final class ClientBody extends FilterInputStream {

    /** The client's body failed while it was being sent upstream. */
    static final class Failed extends IOException {
        Failed(IOException cause) {
            super("the client's request body failed: " + cause.getMessage(), cause);
        }
    }

    ClientBody(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        try {
            return super.read();
        } catch (IOException e) {
            throw new Failed(e);
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            return super.read(b, off, len);
        } catch (IOException e) {
            throw new Failed(e);
        }
    }

    /** True when {@code e}, or what caused it, is a failure of the client's body. */
    static boolean failed(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof Failed) {
                return true;
            }
        }
        return false;
    }
}
