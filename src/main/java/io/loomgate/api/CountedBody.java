package io.loomgate.api;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** A proxied request's body, its bytes counted as they are forwarded: what its timeline says went in. */
final class CountedBody extends FilterInputStream {

    private volatile long count;

    CountedBody(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            count += n;
        }
        return n;
    }

    long count() {
        return count;
    }
}
