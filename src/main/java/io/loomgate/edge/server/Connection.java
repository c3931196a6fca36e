package io.loomgate.edge.server;

import io.loomgate.http1.Http1Exception;
import io.loomgate.http1.LineInput;
import io.loomgate.net.IoWatchdog;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLSocket;

/**
 * One client connection, on a virtual thread of its own, with blocking reads and writes: the TLS
 * handshake and each request's head within the read timeout, then the exchange, run on this same
 * thread when the server's executor allows it ({@link InlineExecutor}, or none) and handed to the
 * executor otherwise; meanwhile a watch on the socket, so a client that hangs up cancels its
 * request ({@link ServerExchange#clientGone()}): on this thread while another runs the exchange, on
 * one of its own once an exchange run here has taken {@link ClientWatch#AFTER}; then the next
 * request, in order, after at most the idle timeout. A request that breaks HTTP/1.1's rules is
 * answered with its status and the connection closes: once the framing is in doubt, nothing after
 * it is read. A connection that opens with HTTP/2's preface, or chose {@code h2} by ALPN, is
 * served by {@link H2Connection} from then on.
 */
final class Connection implements Runnable, IoWatchdog.Watched {

    private static final System.Logger LOG = System.getLogger("loomgate");

    private final Listener listener;
    private final Socket raw;
    private final boolean counted;
    private Socket socket;
    private InputStream in;
    /** The connection's output, each write timed for the {@link IoWatchdog}; null until the handshake is done. */
    volatile TimedOutput output;
    final LineInput input = new LineInput(8192) {
        @Override
        protected int fill(byte[] b, int off, int len) throws IOException {
            return reads.read(in, b, off, len);
        }
    };
    /** How its reads wait: the read timeout for a handshake and a head, the idle timeout between requests. */
    final TimedReads reads = new TimedReads();
    private volatile boolean closed;
    /** Reading a request head (or the TLS handshake): a read timeout now is a head timeout. */
    private boolean inHead;
    /** The exchange running now; null once it ended, so an idle connection holds nothing of it. */
    private volatile ServerExchange watched;
    /** Whether the last exchange left the connection for another request, read at its end. */
    private volatile boolean keptAfterEnd;
    /** It carries a tunnel now (after a {@code 101}): it costs more than a connection, and counts so. */
    private volatile boolean tunnel;
    private final ClientWatch hangUps;

    Connection(Listener listener, Socket raw, boolean counted) {
        this.listener = listener;
        this.raw = raw;
        this.counted = counted;
        this.socket = raw;
        this.hangUps = new ClientWatch(this, listener.stats().threadsStarted);
    }

    @Override
    public void run() {
        try {
            raw.setTcpNoDelay(true);
            listener.watchdog().watch(this);   // for its whole life: the watchdog times its reads and writes
            ServerLimits limits = listener.limits();
            reads.set(System.nanoTime() + limits.readTimeout().toNanos(), limits.readTimeout());
            if (listener.tls()) {
                inHead = true;
                socket = Handshake.run(raw, listener.configurator(), reads.deadline());
                socket.setSoTimeout(0);   // the handshake's own timeout; from here TimedReads times the reads
            }
            in = socket.getInputStream();
            output = new TimedOutput(socket.getOutputStream());
            for (boolean first = true; !closed; first = false) {
                if (!first) {
                    reads.set(TimedReads.NO_DEADLINE, limits.idleTimeout());
                }
                inHead = false;
                if (!input.awaitByte()) {
                    return;
                }
                if (first && H2Connection.preface(input, tls())) {
                    new H2Connection(this, listener, input.rest(), output).serve(socket);
                    return;
                }
                inHead = true;
                long arrival = System.nanoTime();
                if (!first) {
                    reads.set(arrival + limits.readTimeout().toNanos(), limits.readTimeout());
                }
                switch (serveNext(arrival)) {
                    case INPUT_ENDED -> {
                        return;
                    }
                    case CLOSES -> {
                        if (!closed) {
                            Closing.linger(socket, this);   // the answer said Connection: close; the client may still be sending
                        }
                        return;
                    }
                    case KEEPS -> input.release();
                }
            }
        } catch (Http1Exception e) {
            listener.stats().malformed.increment();
            refuse(e.status(), e.getMessage());
        } catch (SocketTimeoutException e) {
            if (inHead) {
                listener.stats().headTimeouts.increment();
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, () -> "connection from " + peer() + " ended: " + e);
        } finally {
            close();
            listener.watchdog().unwatch(this);
            listener.closed(this);
        }
    }

    /** What became of the connection after one request. */
    private enum Next { INPUT_ENDED, CLOSES, KEEPS }

    /**
     * Reads the next request's head and runs its exchange, then lets go of both before the watch's
     * read (which may wait out the idle timeout): what a parked thread's frames hold is what an idle connection costs.
     */
    private Next serveNext(long arrival) throws IOException {
        boolean keeps;
        RequestHead head = RequestHead.read(input);
        if (head == null) {
            return Next.INPUT_ENDED;
        }
        inHead = false;
        ServerExchange x = new ServerExchange(this, head, arrival);
        head = null;
        Context context = listener.contexts().find(x.head().contextPath());
        if (context == null || context.getHandler() == null) {
            refuse(404, "no context for " + x.head().contextPath());
            return Next.CLOSES;
        }
        reads.set(TimedReads.NO_DEADLINE, listener.limits().idleTimeout());
        watched = x;   // before it can end: its end clears it (exchangeEnded)
        listener.exchangeStarted();
        if (Dispatch.runsHere(listener.executor())) {
            hangUps.arm(System.nanoTime());
            Dispatch.run(x, context, listener.executor());
            x = null;   // it has ended; a watch still reading may wait out the idle timeout, holding nothing of it
            hangUps.disarm();
            Thread.interrupted();   // one meant for the exchange (a hang-up's, a shutdown's) is not the next one's
            keeps = keptAfterEnd;
        } else if (!Dispatch.run(x, context, listener.executor())) {
            refuse(503, "the server is shutting down");
            return Next.CLOSES;
        } else {
            keeps = handedOver(x);
        }
        return keeps && !closed ? Next.KEEPS : Next.CLOSES;
    }

    /** An exchange another thread runs: this one watches the socket once its body is read, and waits for its end. */
    private boolean handedOver(ServerExchange x) throws IOException {
        x.awaitBodyOrEnd();
        if (!x.ended() && x.keepsConnection() && !x.head().upgrade()) {
            java.util.concurrent.CountDownLatch end = x.endLatch();
            x = null;   // from here only the field holds it, and only until it ends
            input.release();   // its body is read: the buffer goes back unless it holds the next request's bytes
            hangUps.watch();
            Latches.awaitUninterruptibly(end);
            return keptAfterEnd;
        }
        x.awaitEnd();
        return x.keepsConnection();
    }

    /**
     * Called once, on the thread that ended the exchange: the server stops counting it, and an answer
     * that said {@code Connection: close} ends this side now (the watch's read then sees the client close).
     */
    void exchangeEnded(ServerExchange x) {
        keptAfterEnd = x.keepsConnection();
        watched = null;
        reads.release(System.nanoTime());   // after watched: see ClientWatch.watch
        listener.exchangeEnded();
        if (!x.keepsConnection() && !closed) {
            try {
                if (socket instanceof SSLSocket) {
                    close();
                } else {
                    socket.shutdownOutput();
                }
            } catch (IOException e) {
                close();
            }
        }
    }

    /** The client closed its end: the exchange still running is cancelled, and the connection closes. */
    void clientGone() {
        ServerExchange x = watched;
        if (x != null && !x.ended()) {
            listener.stats().clientGone.increment();
            x.clientGone();
        }
        close();
    }

    @Override
    public boolean closeIfWriteStalled(long now) {
        TimedOutput o = output;
        if (o == null || !o.stalled(now, listener.limits().idleTimeout().toNanos())) {
            return false;
        }
        close();
        return true;
    }

    @Override
    public void tick(long now) {
        if (reads.expired(now)) {
            Closing.quietly(raw);   // the raw socket first: a TLS socket's close could wait for its reader
            close();
            return;
        }
        hangUps.tick(now);
    }

    @Override
    public String peer() {
        return String.valueOf(raw.getRemoteSocketAddress());
    }

    /** Answers a request that cannot be served with {@code status}, and closes: nothing after it is read. */
    private void refuse(int status, String why) {
        if (closed || output == null) {
            return;
        }
        try {
            output.write(Responses.refusal(status, why));
            output.flush();
            Closing.linger(socket, this);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> "could not tell " + peer() + " " + status + ": " + e);
        }
    }

    void close() {
        closed = true;
        Closing.quietly(socket);
        if (socket != raw) {
            Closing.quietly(raw);
        }
    }

    ServerExchange watched() {
        return watched;
    }

    boolean counted() {
        return counted;
    }

    /** Idle between requests and holding nothing of the last one: no exchange, no buffer. */
    boolean holdsNothingIdle() {
        return watched == null && !input.holdsBuffer();
    }

    /** After a {@code 101}: from now on it holds a tunnel, counted at a tunnel's cost under {@code --max-connections}. */
    void becameTunnel() {
        if (!tunnel) {
            tunnel = true;
            listener.tunnelOpened();
        }
    }

    boolean tunnel() {
        return tunnel;
    }

    InetAddress address() {
        return raw.getInetAddress();
    }

    InetSocketAddress remote() {
        return (InetSocketAddress) raw.getRemoteSocketAddress();
    }

    InetSocketAddress local() {
        return (InetSocketAddress) raw.getLocalSocketAddress();
    }

    /** For an HTTPS connection, its TLS socket. */
    SSLSocket tls() {
        return socket instanceof SSLSocket s ? s : null;
    }
}
