package io.loomgate.client;

import io.loomgate.http1.Http1Exception;
import io.loomgate.http1.LineInput;
import io.loomgate.net.IoWatchdog;
import io.loomgate.net.ReadClock;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import javax.net.ssl.SSLSocket;

/**
 * One HTTP/1.1 connection to an upstream, used by one exchange at a time.
 *
 * <ul>
 *   <li>Every read waits at most until the exchange's deadline, and at most the idle timeout for
 *       any one read, and a write that makes no progress for the idle timeout is stopped: the
 *       {@link IoWatchdog} closes the connection ({@link ReadClock}).</li>
 *   <li>It is a {@link SocketChannel}, so an interrupt closes it at once on any thread, virtual or
 *       platform: the upstream sees its connection close. For {@code https://} a TLS socket is
 *       layered over the channel; closing the channel closes it too.</li>
 *   <li>It counts the bytes each exchange receives, so the client knows whether any of an answer
 *       came before a failure, and it can be probed, without blocking, for bytes or a close that
 *       arrived while it sat in the pool.</li>
 * </ul>
 */
public final class Http1Connection implements AutoCloseable, IoWatchdog.Watched {

    private final SocketChannel channel;
    /** The TLS layer over the channel for an {@code https://} upstream; null for plain HTTP. */
    private final SSLSocket tls;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final LineInput input = new LineInput(8192) {
        @Override
        protected int fill(byte[] b, int off, int len) throws IOException {
            return readSocket(b, off, len);
        }
    };
    private final IoWatchdog watchdog;
    final String key;
    volatile long lastUsedNanos = System.nanoTime();
    /** How long it may wait in the pool: {@link Http1Client#MAX_IDLE}, or less when the upstream's {@code Keep-Alive} says so. */
    long idleLimitNanos = Http1Client.MAX_IDLE.toNanos();
    boolean reused;
    private volatile long deadlineNanos;
    private volatile long idleNanos;
    /** A {@link BodySender} is still writing: the head is awaited with no deadline. */
    private volatile boolean sending;
    private long received;
    private volatile long writingSince;
    private final ReadClock reads = new ReadClock();
    private volatile boolean stalled;

    /** A connection over {@code channel}, connected (and over {@code tls}, handshaken, unless null), pooled under {@code key}. */
    Http1Connection(SocketChannel channel, SSLSocket tls, String key, IoWatchdog watchdog) throws IOException {
        this.channel = channel;
        this.tls = tls;
        this.socket = tls != null ? tls : channel.socket();
        this.key = key;
        this.watchdog = watchdog;
        this.in = socket.getInputStream();
        this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
        socket.setSoTimeout(0);   // the handshake's; from here the watchdog's tick times its reads
        watchdog.watch(this);
    }

    /** Starts an exchange: reads end by {@code deadlineNanos} ({@link System#nanoTime()}), and no read or write waits longer than {@code idle}. */
    void begin(long deadlineNanos, Duration idle) {
        received = 0;
        timeouts(deadlineNanos, idle);
    }

    /** Changes the exchange's deadline and idle timeout (a streamed body has its own). Touches no socket. */
    void timeouts(long deadlineNanos, Duration idle) {
        this.deadlineNanos = deadlineNanos;
        this.idleNanos = idle.toNanos();
    }

    /** Whether a {@link BodySender} is writing the request body now. */
    void sending(boolean going) {
        this.sending = going;
        if (!going) {
            reads.restart(System.nanoTime());   // a read that waited for the body now waits its own time
        }
    }

    /** The whole body went out: the head is due within {@code afterBody} from now, if that is later than the deadline. */
    void bodySent(Duration afterBody) {
        deadlineNanos = Math.max(deadlineNanos, System.nanoTime() + afterBody.toNanos());
    }

    /** Bytes received in this exchange so far (what is buffered included). */
    long received() {
        return received;
    }

    /** Writes the request head and streams its body, if it has one; {@code close} asks the upstream to close afterwards. */
    public void send(OutgoingRequest r, boolean close) throws IOException {
        r.writeTo(watched, close);
        writingSince = System.nanoTime();
        try {
            out.flush();
        } catch (IOException e) {
            throw stalled ? new IdleTimeout(Duration.ofNanos(idleNanos), "the upstream read nothing more of the request") : e;
        } finally {
            writingSince = 0;
        }
    }

    /**
     * After a {@code 101}: the connection's output for the new protocol, each write flushed at once.
     * Reads come through the answer's body, which runs until the connection closes.
     */
    public OutputStream tunnel() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                Http1Connection.this.write(b, off, len);
                out.flush();
            }

            /** Tells the upstream the client is done: a half-close (over TLS, a close_notify). */
            @Override
            public void close() throws IOException {
                socket.shutdownOutput();
            }
        };
    }

    /** The connection's output as a stream, each write timed for the {@link IoWatchdog}. */
    private final OutputStream watched = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Http1Connection.this.write(b, off, len);
        }
    };

    private void write(byte[] b, int off, int len) throws IOException {
        writingSince = System.nanoTime();
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw stalled ? new IdleTimeout(Duration.ofNanos(idleNanos), "the upstream read nothing more of the request") : e;
        } finally {
            writingSince = 0;
        }
    }

    @Override
    public String peer() {
        return key;
    }

    /** For the watchdog: true, and the connection closed, when a write has waited longer than the idle timeout. */
    @Override
    public boolean closeIfWriteStalled(long now) {
        long since = writingSince;
        if (since == 0 || now - since <= idleNanos) {
            return false;
        }
        stalled = true;
        close();
        return true;
    }

    /** For the watchdog: a read that waited past the idle timeout or the deadline closes the connection (not while the body goes). */
    @Override
    public void tick(long now) {
        if (!channel.isOpen() || (!sending && reads.expired(now, idleNanos, deadlineNanos))) {
            close();   // closed by an interrupt, say: the watchdog lets it go too
        }
    }

    /** One line of a head, a chunk size or a trailer, without its line end (CRLF, or a bare LF). */
    String readLine() throws IOException {
        String line;
        try {
            line = input.readLine();
        } catch (Http1Exception e) {
            throw new MalformedResponse(e.getMessage());
        } catch (EOFException e) {
            throw new EOFException("the upstream closed the connection in the middle of a line");
        }
        if (line == null) {
            throw received == 0 ? new EOFException("the upstream closed the connection before answering")
                    : new EOFException("the upstream closed the connection in the middle of the head");
        }
        return line;
    }

    /** The connection's input, for the codec. */
    LineInput input() {
        return input;
    }

    /** One byte; -1 at the end of the stream. */
    public int read() throws IOException {
        return input.read();
    }

    public int read(byte[] b, int off, int len) throws IOException {
        return input.read(b, off, len);
    }

    /** Bytes read from the socket and not yet consumed: after an answer's end, they belong to no answer. */
    int buffered() {
        return input.buffered();
    }

    private int readSocket(byte[] b, int off, int len) throws IOException {
        if (deadlineNanos - System.nanoTime() <= 0 && !sending) {   // a body going out bounds its own writes
            throw new SocketTimeoutException("the exchange's time ran out");
        }
        reads.reading();
        int n;
        try {
            n = in.read(b, off, len);
        } catch (IOException e) {
            reads.done();
            throw reads.timedOut() ? timedOut() : e;
        }
        if (!reads.done()) {   // bytes that came as the watchdog closed the connection: it timed out all the same
            throw timedOut();
        }
        received += Math.max(0, n);
        return n;
    }

    private IOException timedOut() {
        return deadlineNanos - System.nanoTime() <= 0 ? new SocketTimeoutException("the exchange's time ran out")
                : new IdleTimeout(Duration.ofNanos(idleNanos), "no byte came");
    }

    /**
     * For a pooled connection about to be reused: true when nothing arrived while it sat idle. A
     * close, or bytes no request asked for, mean it must not carry another exchange. Never blocks
     * (over TLS, at most a millisecond: see {@link IdleProbe}).
     */
    boolean stillIdle() {
        return input.buffered() == 0 && channel.isOpen() && IdleProbe.stillIdle(channel, tls);
    }

    boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() {
        watchdog.unwatch(this);
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }
}
