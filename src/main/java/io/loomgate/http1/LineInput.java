package io.loomgate.http1;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A connection's input, buffered, as the codec reads it: lines of a head, a chunk size or a
 * trailer, and body bytes. A line ends at LF, with the CR before it dropped (RFC 9112 section 2.2
 * lets a recipient take a bare LF as a line end, as nginx does); a CR anywhere else in a line is
 * refused, since a reader that took it for a line end would see other headers than loomgate saw.
 * Subclasses say where bytes come from ({@link #fill}); the buffer is made on the first read, so an
 * idle connection holds none.
 */
public abstract class LineInput {

    private final int size;
    private byte[] buf;
    private int pos;
    private int limit;

    /** @param size the buffer's size: also how much of a pipelined next request it can hold */
    protected LineInput(int size) {
        this.size = size;
    }

    /**
     * Reads more bytes from the source into {@code b}.
     *
     * @return how many, or -1 at its end
     */
    protected abstract int fill(byte[] b, int off, int len) throws IOException;

    /**
     * One line, without its line end, decoded as ISO-8859-1 (one char per byte).
     *
     * @return null when the source ended before the line's first byte
     * @throws Http1Exception for a line over {@code maxLine} bytes (with {@code tooLong} as its status) or a bare CR
     * @throws EOFException   when the source ended in the middle of the line
     */
    public String readLine(int maxLine, int tooLong) throws IOException {
        if (pos == limit && !refill()) {
            return null;
        }
        int scanned = pos;
        while (true) {
            for (int i = scanned; i < limit && i - pos <= maxLine; i++) {
                if (buf[i] == '\n') {
                    String line = line(buf, pos, i, maxLine, tooLong);
                    pos = i + 1;
                    return line;
                }
            }
            if (limit - pos > maxLine || limit - pos >= buf.length) {
                break;   // longer than the buffer holds: byte by byte, below
            }
            scanned = limit - pos;
            compact();
            int n = fill(buf, limit, buf.length - limit);
            if (n <= 0) {
                throw new EOFException("the connection closed in the middle of a line");
            }
            limit += n;
        }
        byte[] line = new byte[maxLine + 2];
        int n = 0;
        for (int b; (b = read()) != '\n'; ) {
            if (b < 0) {
                throw new EOFException("the connection closed in the middle of a line");
            }
            if (n == line.length) {
                throw new Http1Exception(tooLong, "a line longer than " + maxLine + " bytes");
            }
            line[n++] = (byte) b;
        }
        return line(line, 0, n, maxLine, tooLong);
    }

    /** {@link #readLine(int, int)} for a line of a head, a chunk size or a trailer: at most {@link HeadLimits#MAX_LINE}. */
    public String readLine() throws IOException {
        return readLine(HeadLimits.MAX_LINE, 400);
    }

    private static String line(byte[] b, int from, int lf, int maxLine, int tooLong) throws Http1Exception {
        int end = lf > from && b[lf - 1] == '\r' ? lf - 1 : lf;
        if (end - from > maxLine) {
            throw new Http1Exception(tooLong, "a line longer than " + maxLine + " bytes");
        }
        for (int i = from; i < end; i++) {
            if (b[i] == '\r') {
                throw new Http1Exception("a bare CR inside a line");
            }
        }
        return new String(b, from, end - from, StandardCharsets.ISO_8859_1);
    }

    /** One byte; -1 at the end of the source. */
    public int read() throws IOException {
        if (pos == limit && !refill()) {
            return -1;
        }
        return buf[pos++] & 0xff;
    }

    /** Up to {@code len} bytes: what is buffered first, else straight from the source when {@code len} is large. */
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;   // as InputStream's contract says, without waiting for a byte (readNBytes asks for 0 at its end)
        }
        if (pos == limit) {
            if (len >= size) {
                return fill(b, off, len);
            }
            if (!refill()) {
                return -1;
            }
        }
        int n = Math.min(len, limit - pos);
        System.arraycopy(buf, pos, b, off, n);
        pos += n;
        return n;
    }

    /** Bytes read from the source and not yet consumed. */
    public int buffered() {
        return limit - pos;
    }

    /**
     * Reads what the source has into the buffer without consuming it (a pipelined request, or the
     * sign that the peer closed), when the buffer is empty.
     *
     * @return false when the source ended
     */
    public boolean prefetch() throws IOException {
        return pos < limit || refill();
    }

    /**
     * What {@link #awaitByte} reads into while it waits, instead of a whole buffer: most requests'
     * heads (an API client's, curl's, wrk's) fit, so their first read is their only one.
     */
    static final int FIRST_READ = 512;

    /**
     * Waits for the first bytes without consuming them, holding no buffer while it waits: what an
     * idle connection does between requests. Takes what comes, up to {@link #FIRST_READ} bytes, in
     * a small array, and only then makes the buffer for the rest.
     *
     * @return false when the source ended
     */
    public boolean awaitByte() throws IOException {
        if (pos < limit) {
            return true;
        }
        byte[] first = new byte[Math.min(FIRST_READ, size)];
        int n = fill(first, 0, first.length);
        if (n <= 0) {
            return false;
        }
        if (buf == null) {
            buf = newBuffer();
        }
        System.arraycopy(first, 0, buf, 0, n);
        pos = 0;
        limit = n;
        return true;
    }

    /**
     * Whether the input starts with {@code prefix} (HTTP/2's connection preface), reading no more than
     * it takes to tell and consuming nothing; false when the input ends first.
     */
    public boolean startsWith(byte[] prefix) throws IOException {
        if (pos == limit && !refill()) {
            return false;
        }
        while (true) {
            int have = Math.min(limit - pos, prefix.length);
            if (!Arrays.equals(buf, pos, pos + have, prefix, 0, have)) {
                return false;
            }
            if (have == prefix.length) {
                return true;
            }
            compact();
            int n = fill(buf, limit, buf.length - limit);
            if (n <= 0) {
                return false;
            }
            limit += n;
        }
    }

    /** What is left of the input, as a stream to its end: a body that runs until the connection closes. */
    public InputStream rest() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                return LineInput.this.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return LineInput.this.read(b, off, len);
            }
        };
    }

    /** Whether it holds a buffer now: while it reads, or while unread bytes wait in it. */
    public boolean holdsBuffer() {
        return buf != null;
    }

    /** Lets the buffer go while nothing is in it: an idle connection then holds no buffer. */
    public void release() {
        if (pos == limit) {
            Buffers.give(buf);
            buf = null;
            pos = 0;
            limit = 0;
        }
    }

    /** Moves the unread bytes to the buffer's start. */
    private void compact() {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
    }

    private byte[] newBuffer() {
        return size == Buffers.SIZE ? Buffers.take() : new byte[size];
    }

    private boolean refill() throws IOException {
        if (buf == null) {
            buf = newBuffer();
        }
        int n = fill(buf, 0, buf.length);
        pos = 0;
        limit = Math.max(n, 0);
        return n > 0;
    }
}
