package io.loomgate.remote;

import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP/1.1 connection to an upstream, used by one exchange at a time. Every read waits at most
 * until the exchange's deadline. An interrupt stops a read at once: on a virtual thread the socket
 * closes itself; on a platform thread (platform mode), reads wait in slices of {@value #SLICE_MS} ms
 * and check for an interrupt between them, then close the socket. Either way the upstream sees its
 * connection close.
 */
final class Http1Connection implements AutoCloseable {

    static final int SLICE_MS = 20;
    private static final int MAX_LINE = 8 * 1024;
    private static final int MAX_HEADERS = 200;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] buf = new byte[8192];
    private int pos;
    private int limit;
    final String key;
    volatile long lastUsedNanos = System.nanoTime();
    boolean reused;
    private long deadlineNanos;
    private int soTimeoutMs = -1;

    private Http1Connection(Socket socket, String key) throws IOException {
        this.socket = socket;
        this.key = key;
        this.in = socket.getInputStream();
        this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
    }

    /** The upstream did not accept a connection in time. */
    static final class ConnectTimeout extends IOException {
        ConnectTimeout() {
            super("connect timed out", null);
        }
    }

    static Http1Connection open(String host, int port, String key, int connectTimeoutMs) throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(host, port), connectTimeoutMs);
            return new Http1Connection(s, key);
        } catch (SocketTimeoutException e) {
            s.close();
            throw new ConnectTimeout();
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /**
     * Reads wait at most until {@code deadlineNanos} ({@link System#nanoTime()}); then they time out.
     * The socket's timeout is set here, once per exchange, not before every read: on a virtual
     * thread it is the time left now (each read also checks the deadline first), on a platform
     * thread the slice after which a read checks for an interrupt.
     */
    void deadline(long deadlineNanos) throws IOException {
        this.deadlineNanos = deadlineNanos;
        long ms = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()) + 1);
        int timeout = (int) Math.min(ms, Thread.currentThread().isVirtual() ? Integer.MAX_VALUE : SLICE_MS);
        if (timeout != soTimeoutMs) {
            socket.setSoTimeout(timeout);
            soTimeoutMs = timeout;
        }
    }

    void send(OutgoingRequest r) throws IOException {
        StringBuilder head = new StringBuilder(256).append(r.method()).append(' ').append(r.target())
                .append(" HTTP/1.1\r\nHost: ").append(r.origin().authority()).append("\r\n");
        for (String[] h : r.headers()) {
            head.append(h[0]).append(": ").append(h[1]).append("\r\n");
        }
        boolean chunked = r.body() != null && r.length() < 0;
        if (chunked) {
            head.append("Transfer-Encoding: chunked\r\n");
        } else if (r.body() != null || needsLength(r.method())) {
            head.append("Content-Length: ").append(r.body() == null ? 0 : r.length()).append("\r\n");
        }
        out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
        if (r.body() != null) {
            writeBody(r.body(), r.length(), chunked);
        }
        out.flush();
    }

    private static boolean needsLength(String method) {
        return method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    }

    private void writeBody(InputStream body, long length, boolean chunked) throws IOException {
        byte[] buf = new byte[8192];
        long left = length;
        for (int n; (chunked || left > 0) && (n = body.read(buf, 0, chunked ? buf.length : (int) Math.min(buf.length, left))) >= 0; ) {
            if (chunked) {
                out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.write(buf, 0, n);
                out.write('\r');
                out.write('\n');
            } else {
                out.write(buf, 0, n);
                left -= n;
            }
        }
        if (chunked) {
            out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        } else if (left > 0) {
            throw new EOFException("the request body ended " + left + " bytes early");
        }
    }

    /** The response's status line and headers; interim 1xx answers are skipped. */
    Head readHead() throws IOException {
        while (true) {
            String status = readLine(true);
            if (!status.startsWith("HTTP/1.") || status.length() < 12) {
                throw new IOException("not an HTTP/1.x status line");
            }
            int code = Integer.parseInt(status.substring(9, 12));
            Map<String, List<String>> headers = new LinkedHashMap<>();
            for (String line; !(line = readLine(false)).isEmpty(); ) {
                int colon = line.indexOf(':');
                if (colon <= 0 || headers.size() >= MAX_HEADERS) {
                    throw new IOException("malformed or too many response headers");
                }
                headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>(1))
                        .add(line.substring(colon + 1).trim());
            }
            if (code >= 200 || code == 101) {
                String connection = String.join(",", headers.getOrDefault("connection", List.of())).toLowerCase(Locale.ROOT);
                boolean keepAlive = status.startsWith("HTTP/1.1") ? !connection.contains("close") : connection.contains("keep-alive");
                return new Head(code, headers, keepAlive);
            }
        }
    }

    /** Status, headers and whether the connection may be reused after the body. */
    record Head(int status, Map<String, List<String>> headers, boolean keepAlive) {
    }

    /** One byte, waiting at most until the deadline and stopping at an interrupt; -1 at the end. */
    int read() throws IOException {
        if (pos == limit && !fill()) {
            return -1;
        }
        return buf[pos++] & 0xff;
    }

    int read(byte[] b, int off, int len) throws IOException {
        if (pos == limit) {
            if (len >= buf.length) {
                return readSocket(b, off, len);
            }
            if (!fill()) {
                return -1;
            }
        }
        int n = Math.min(len, limit - pos);
        System.arraycopy(buf, pos, b, off, n);
        pos += n;
        return n;
    }

    private boolean fill() throws IOException {
        int n = readSocket(buf, 0, buf.length);
        pos = 0;
        limit = Math.max(n, 0);
        return n > 0;
    }

    private int readSocket(byte[] b, int off, int len) throws IOException {
        while (true) {
            arm();
            try {
                return in.read(b, off, len);
            } catch (SocketTimeoutException e) {
                interruptedOrTimedOut();
            }
        }
    }

    /** Before a read: time out if the deadline has passed; shorten the socket's timeout when it has grown too long for what is left. */
    private void arm() throws IOException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new SocketTimeoutException("the exchange's time ran out");
        }
        long leftMs = TimeUnit.NANOSECONDS.toMillis(left) + 1;
        if (soTimeoutMs > SLICE_MS && leftMs < soTimeoutMs / 2) {
            socket.setSoTimeout((int) leftMs);
            soTimeoutMs = (int) leftMs;
        }
    }

    private void interruptedOrTimedOut() throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            close();
            throw new InterruptedIOException("interrupted while reading from the upstream");
        }
        if (deadlineNanos - System.nanoTime() <= 0) {
            throw new SocketTimeoutException("the exchange's time ran out");
        }
    }

    /** A line of the head, without its CR LF; scanned in the buffer, with a slower path for lines that span two reads. */
    private String readLine(boolean first) throws IOException {
        if (pos == limit && !fill()) {
            throw first ? new EOFException("the upstream closed the connection") : new EOFException("cut short");
        }
        for (int i = pos; i < limit; i++) {
            if (buf[i] == '\n') {
                int end = i > pos && buf[i - 1] == '\r' ? i - 1 : i;
                String line = new String(buf, pos, end - pos, StandardCharsets.ISO_8859_1);
                pos = i + 1;
                return line;
            }
        }
        StringBuilder sb = new StringBuilder(128);
        for (int b; (b = read()) != '\n'; ) {
            if (b < 0) {
                throw new EOFException("cut short");
            }
            if (sb.length() >= MAX_LINE) {
                throw new IOException("response line too long");
            }
            if (b != '\r') {
                sb.append((char) b);
            }
        }
        return sb.toString();
    }

    boolean isOpen() {
        return !socket.isClosed();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }
}
