package io.loomgate.client;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A client's request body on its way upstream. A read that fails is the client's fault (a body cut
 * short, a broken chunk), not the upstream's: it is marked, so the proxy answers 400, not 502.
 */
public final class ClientBody extends FilterInputStream {

    /** The client's body failed while it was being sent upstream. */
    static final class Failed extends IOException {
        Failed(IOException cause) {
            super("the client's request body failed: " + cause.getMessage(), cause);
        }
    }

    /** The client's body went past the route's {@code maxBodyBytes}: a 413, not a 400. */
    static final class TooLarge extends IOException {
        TooLarge(long max) {
            super("the request body is larger than the route's maxBodyBytes (" + max + ")");
        }
    }

    private final long max;
    private long read;

    public ClientBody(InputStream in) {
        this(in, Long.MAX_VALUE);
    }

    /** At most {@code max} bytes; one more fails the read with {@link TooLarge}. */
    public ClientBody(InputStream in, long max) {
        super(in);
        this.max = max;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n;
        try {
            n = super.read(b, off, (int) Math.min(len, Math.max(1, max - read + 1)));
        } catch (IOException e) {
            throw new Failed(e);
        }
        if (n > 0 && (read += n) > max) {
            throw new Failed(new TooLarge(max));
        }
        return n;
    }

    /** True when {@code e}, or what caused it, is the client's body past its route's limit. */
    public static boolean tooLarge(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TooLarge) {
                return true;
            }
        }
        return false;
    }

    /** True when {@code e}, or what caused it, is a failure of the client's body. */
    public static boolean failed(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof Failed) {
                return true;
            }
        }
        return false;
    }
}
