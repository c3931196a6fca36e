package io.loomgate.remote;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;

/**
 * A response body framed as HTTP/1.1 says: empty, {@code Content-Length} bytes, chunked, or until
 * the connection closes. Read to its end, it hands its connection to {@code done} (to be reused
 * when it may be); closed early, it closes the connection, which aborts the exchange.
 */
final class Http1Body extends InputStream {

    /** Told once, when the body is finished with. */
    interface Done {
        void finished(Http1Connection connection, boolean reusable);
    }

    private static final long UNTIL_CLOSE = -1;

    private final Http1Connection connection;
    private final Done done;
    private final boolean chunked;
    private final boolean keepAlive;
    private long left;
    private boolean ended;
    private boolean released;

    private Http1Body(Http1Connection connection, Done done, boolean chunked, long length, boolean keepAlive) {
        this.connection = connection;
        this.done = done;
        this.chunked = chunked;
        this.left = length;
        this.keepAlive = keepAlive;
    }

    static Http1Body of(Http1Connection connection, Http1Connection.Head head, String method, Done done)
            throws IOException {
        int s = head.status();
        if (method.equals("HEAD") || s == 204 || s == 304 || (s >= 100 && s < 200)) {
            Http1Body empty = new Http1Body(connection, done, false, 0, head.keepAlive());
            empty.end();
            return empty;
        }
        List<String> te = head.headers().get("transfer-encoding");
        if (te != null && String.join(",", te).toLowerCase(Locale.ROOT).contains("chunked")) {
            Http1Body chunked = new Http1Body(connection, done, true, 0, head.keepAlive());
            chunked.nextChunk();
            return chunked;
        }
        List<String> length = head.headers().get("content-length");
        if (length != null) {
            long n;
            try {
                n = Long.parseLong(length.getFirst().trim());
            } catch (NumberFormatException e) {
                throw new IOException("bad Content-Length from the upstream");
            }
            Http1Body fixed = new Http1Body(connection, done, false, n, head.keepAlive());
            if (n == 0) {
                fixed.end();
            }
            return fixed;
        }
        return new Http1Body(connection, done, false, UNTIL_CLOSE, false);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (ended) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int n = connection.read(b, off, left == UNTIL_CLOSE ? len : (int) Math.min(len, left));
        if (n < 0) {
            if (left == UNTIL_CLOSE) {
                end();
                return -1;
            }
            throw new EOFException("the upstream closed the connection in the middle of the body");
        }
        if (left != UNTIL_CLOSE) {
            left -= n;
            if (left == 0) {
                if (chunked) {
                    crlf();
                    nextChunk();
                } else {
                    end();
                }
            }
        }
        return n;
    }

    /** Lets the rest of the body take until {@code deadlineNanos} to arrive. */
    void deadline(long deadlineNanos) throws IOException {
        connection.deadline(deadlineNanos);
    }

    @Override
    public int available() throws IOException {
        return 0;
    }

    private void nextChunk() throws IOException {
        StringBuilder size = new StringBuilder();
        for (int c; (c = connection.read()) != '\n'; ) {
            if (c < 0 || size.length() > 64) {
                throw new IOException("bad chunk from the upstream");
            }
            size.append((char) c);
        }
        String hex = size.toString().split(";", 2)[0].trim();
        try {
            left = Long.parseLong(hex, 16);
        } catch (NumberFormatException e) {
            throw new IOException("bad chunk size from the upstream");
        }
        if (left == 0) {
            for (int blank = 0; blank == 0; ) {  // trailers, up to the empty line
                StringBuilder line = new StringBuilder();
                for (int c; (c = connection.read()) != '\n'; ) {
                    if (c < 0) {
                        throw new EOFException("cut short in the trailers");
                    }
                    if (c != '\r') {
                        line.append((char) c);
                    }
                }
                blank = line.isEmpty() ? 1 : 0;
            }
            end();
        }
    }

    private void crlf() throws IOException {
        if (connection.read() != '\r' || connection.read() != '\n') {
            throw new IOException("bad chunk framing from the upstream");
        }
    }

    private void end() {
        ended = true;
        release(keepAlive);
    }

    private void release(boolean reusable) {
        if (!released) {
            released = true;
            done.finished(connection, reusable);
        }
    }

    /** Before the end, aborts: the connection closes, and the upstream sees it. */
    @Override
    public void close() {
        if (!ended) {
            connection.close();
            release(false);
        }
    }
}
