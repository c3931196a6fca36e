package io.loomgate.edge.server;

import io.loomgate.http2.FrameOutput;
import io.loomgate.http2.ReceiveWindows;
import io.loomgate.core.engine.ConnectionScope;
import io.loomgate.http2.ErrorCode;
import io.loomgate.http2.StreamBody;
import io.loomgate.http2.Frame;
import io.loomgate.http2.FloodGuard;
import io.loomgate.http2.FrameReader;
import io.loomgate.http2.HeaderBlocks;
import io.loomgate.http2.Http2Exception;
import io.loomgate.http2.ServerStreams;
import io.loomgate.http2.hpack.HpackDecoder;
import io.loomgate.http2.hpack.HpackException;
import io.loomgate.http1.LineInput;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLSocket;

/**
 * An HTTP/2 connection on loomgate's server (RFC 9113), after its preface: the connection's own
 * thread reads every frame and owns a {@link ConnectionScope}, in which each stream the client opens
 * runs as a subtask ({@link H2Streams} turns a header block into one); the streams write through
 * {@link FrameOutput}. A connection error ends it with GOAWAY and the error's code, a stream error resets
 * the one stream, and whatever way the connection ends, its scope cancels the streams still running:
 * no stream outlives its connection. DATA goes to its stream's body within the windows this side
 * granted, and the windows reopen only as handlers read ({@link io.loomgate.http2.StreamBody}).
 */
final class H2Connection {

    /** Streams open at once (SETTINGS_MAX_CONCURRENT_STREAMS); one more is refused. */
    static final int MAX_STREAMS = 100;
    /** The receive window of each stream: the most of its body held before its handler reads. */
    static final int STREAM_WINDOW = 65_535;
    /** The connection's receive window: the most of all its streams' bodies held at once. */
    static final int CONNECTION_WINDOW = 256 * 1024;
    /** The largest header list a request may carry (SETTINGS_MAX_HEADER_LIST_SIZE); a larger one is answered 431. */
    static final int MAX_HEADER_LIST = 64 * 1024;

    private final Connection connection;
    private final Listener listener;
    private final FrameOutput out;
    private final FrameReader reader;
    private final HpackDecoder hpack = new HpackDecoder(4_096, MAX_HEADER_LIST);
    private final HeaderBlocks blocks = new HeaderBlocks(MAX_HEADER_LIST, 32);
    private final H2States states;
    private final ReceiveWindows inflow;
    private final FloodGuard floods = new FloodGuard(System.nanoTime());
    private final Map<Integer, H2Stream> live = new ConcurrentHashMap<>();
    private volatile boolean goingAway;

    H2Connection(Connection connection, Listener listener, InputStream in, TimedOutput output) {
        this.connection = connection;
        this.listener = listener;
        this.out = new FrameOutput(output, listener.limits().idleTimeout().toNanos());
        this.reader = new FrameReader(in);
        this.inflow = new ReceiveWindows(out, STREAM_WINDOW, CONNECTION_WINDOW);
        this.states = new H2States(new ServerStreams(MAX_STREAMS, 200, 100, System.nanoTime()));
    }

    /**
     * Whether the connection speaks HTTP/2: its TLS said {@code h2} by ALPN, or, in clear, it began
     * with the preface (h2c with prior knowledge). The preface is consumed; over TLS with {@code h2}
     * and no preface the connection is broken.
     */
    static boolean preface(LineInput input, SSLSocket tls) throws IOException {
        boolean alpn = tls != null && "h2".equals(tls.getApplicationProtocol());
        if (tls != null && !alpn) {
            return false;
        }
        if (!input.startsWith(FrameReader.PREFACE)) {
            if (alpn) {
                throw new EOFException("h2 by ALPN, and no connection preface");
            }
            return false;
        }
        input.rest().readNBytes(FrameReader.PREFACE.length);
        return true;
    }

    /**
     * Serves the connection until it ends; its preface was read. After a GOAWAY for an error, what the
     * client still sends is read and dropped for a moment (a lingering close), so the GOAWAY is not
     * lost to the reset a close with unread bytes would send.
     */
    void serve(Socket socket) throws IOException {
        listener.stats().h2Connections.increment();
        listener.h2.add(this);
        listener.stats().h2Open.incrementAndGet();
        connection.reads.set(TimedReads.NO_DEADLINE, listener.limits().idleTimeout());   // frames, not a head: the idle timeout between them
        H2Streams opener = new H2Streams(this, listener);
        try (ConnectionScope scope = ConnectionScope.open("h2 " + connection.peer(), listener.stats().threadsStarted)) {
            try {
                out.frame(new Frame.Settings(false, List.of(
                        new Frame.Setting(Frame.Setting.MAX_CONCURRENT_STREAMS, MAX_STREAMS),
                        new Frame.Setting(Frame.Setting.MAX_HEADER_LIST_SIZE, MAX_HEADER_LIST))));
                out.frame(new Frame.WindowUpdate(0, CONNECTION_WINDOW - 65_535));
                Frame first = reader.read();
                if (!(first instanceof Frame.Settings s) || s.ack()) {
                    throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "the preface must end with SETTINGS");
                }
                out.settings(s);
                for (Frame f = next(); f != null; f = next()) {
                    try {
                        HeaderBlocks.Block block = f instanceof Frame.Headers h ? blocks.headers(h) : blocks.next(f);
                        if (block != null) {
                            opener.open(block, decode(block), scope);
                        } else if (!(f instanceof Frame.Headers || f instanceof Frame.Continuation)) {
                            handle(f);
                        }
                    } catch (Http2Exception e) {
                        if (e.connectionError()) {
                            throw e;
                        }
                        H2Stream broken = live.get(e.streamId());
                        if (broken != null) {
                            broken.clientGone(e);   // its work stops, and it sends nothing more
                        }
                        resetLocally(e.streamId(), e.code());
                    }
                }
            } catch (Http2Exception e) {
                if (e.flood() != null) {
                    listener.stats().flood(e.flood());
                }
                out.goAway(lastOpened(), e.code(), e.getMessage());
                Closing.linger(socket, connection);
            } finally {
                listener.h2.remove(this);
                listener.stats().h2Open.decrementAndGet();
                out.close();
                EOFException gone = new EOFException("the connection ended");
                live.values().forEach(s -> s.clientGone(gone));
            }
        }
    }

    /** The next frame, with the read's clock held while any stream runs: a stream's work may take longer than the idle timeout. */
    private Frame next() throws IOException {
        if (live.isEmpty()) {
            connection.reads.release(System.nanoTime());
        } else {
            connection.reads.hold();
        }
        return reader.read();
    }

    private HpackDecoder.Block decode(HeaderBlocks.Block block) throws Http2Exception {
        try {
            return hpack.decode(block.block(), 0, block.block().length);
        } catch (HpackException e) {
            throw Http2Exception.connection(ErrorCode.COMPRESSION_ERROR, e.getMessage());
        }
    }

    private void handle(Frame f) throws IOException {
        switch (f) {
            case Frame.Data d -> data(d);
            case Frame.Settings s -> {
                if (!s.ack()) {
                    floods.settings(System.nanoTime());
                    out.settings(s);
                }
            }
            case Frame.Ping p -> {
                if (!p.ack()) {
                    floods.ping(System.nanoTime());
                    out.frame(new Frame.Ping(true, p.data()));
                }
            }
            case Frame.Priority p -> floods.priority((states.lastOpened() + 1) / 2);   // then ignored (RFC 9113 section 5.3.2)
            case Frame.WindowUpdate w -> {
                floods.windowUpdate(out.dataFramesSent(), (states.lastOpened() + 1) / 2);
                if (w.streamId() != 0) {
                    states.windowUpdate(w.streamId());
                }
                out.windowUpdate(w);
            }
            case Frame.RstStream r -> {
                boolean running = states.reset(r.streamId());
                H2Stream s = live.get(r.streamId());
                if (running && s != null) {
                    s.clientGone(new IOException("the client reset stream " + r.streamId() + " (" + r.code() + ")"));
                }
            }
            case Frame.GoAway g -> goingAway = true;
            case Frame.PushPromise p -> throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "a client sent PUSH_PROMISE");
            default -> {
                // a frame of a type this side does not know is ignored (RFC 9113 section 5.5)
            }
        }
    }

    /** DATA: counted against both windows, handed to its stream's body, or given back when no handler will read it. */
    private void data(Frame.Data d) throws IOException {
        int id = d.streamId();
        floods.data(d.flowLength(), d.endStream());
        int padding = d.flowLength() - d.data().length;
        try {
            inflow.consume(id, d.flowLength());
            states.data(id, d.endStream());
        } catch (Http2Exception e) {
            if (!e.connectionError()) {
                credit(0, d.flowLength(), true);   // the connection's window still counted it
            }
            throw e;
        }
        if (padding > 0) {
            credit(id, padding, d.endStream());
        }
        H2Stream s = live.get(id);
        if (s == null) {
            credit(0, d.data().length, true);
            return;
        }
        try {
            H2Streams.checkLength(s, d.data().length, d.endStream());
        } catch (Http2Exception e) {
            credit(0, d.data().length, true);
            throw e;
        }
        s.requestBody().offer(d.data(), d.endStream());
    }

    /** {@link ReceiveWindows#credit}: a handler read, or a body was dropped. */
    void credit(int id, int octets, boolean streamEnded) {
        inflow.credit(id, octets, streamEnded);
    }

    /** The stream {@code id} whose handler still runs, or null. */
    H2Stream live(int id) {
        return live.get(id);
    }

    H2States states() {
        return states;
    }

    /** A stream opened: its receive window, its send window and its place among the live ones. */
    void opened(H2Stream s) {
        inflow.open(s.id());
        out.open(s.id());
        live.put(s.id(), s);
    }

    /** The stream's handler is done, and so is the stream, on this side. */
    void streamEnded(H2Stream s) {
        live.remove(s.id());
        inflow.forget(s.id());
        out.forget(s.id());
        listener.exchangeEnded();
    }

    /** This side sent END_STREAM. */
    void endedLocally(int id) {
        states.endLocal(id);
    }

    /** This side resets stream {@code id} with {@code code}. */
    void resetLocally(int id, ErrorCode code) {
        states.resetLocal(id);
        try {
            out.frame(new Frame.RstStream(id, code));
        } catch (IOException e) {
            // the connection is ending
        }
    }

    /** No new streams: GOAWAY with the last one opened, which this side still answers (a graceful stop). */
    void goAway() {
        if (!goingAway) {
            goingAway = true;
            out.goAway(lastOpened(), ErrorCode.NO_ERROR, "the server is stopping");
        }
    }

    boolean goingAway() {
        return goingAway || listener.stopping();
    }

    int lastOpened() {
        return states.lastOpened();
    }

    FrameOutput out() {
        return out;
    }

    /** The connection it speaks over: its addresses, its TLS socket. */
    Connection transport() {
        return connection;
    }
}
