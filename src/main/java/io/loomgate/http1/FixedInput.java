package io.loomgate.http1;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/** A body of a known length: exactly that many bytes, and an {@link EOFException} when the source ends short of them. */
public final class FixedInput extends InputStream {

    private final LineInput in;
    private long left;

    public FixedInput(LineInput in, long length) {
        this.in = in;
        this.left = length;
    }

    /** The bytes the {@code Content-Length} still declares. */
    public long left() {
        return left;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (left == 0) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int n = in.read(b, off, (int) Math.min(len, left));
        if (n < 0) {
            throw new EOFException("the connection closed " + left + " bytes short of the Content-Length");
        }
        left -= n;
        return n;
    }

    /** True once every byte was read. */
    public boolean ended() {
        return left == 0;
    }
}
