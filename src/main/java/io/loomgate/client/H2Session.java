package io.loomgate.client;

import io.loomgate.http2.ErrorCode;
import io.loomgate.http2.Frame;
import io.loomgate.http2.FrameOutput;
import io.loomgate.http2.FrameReader;
import io.loomgate.http2.HeaderBlocks;
import io.loomgate.http2.ReceiveWindows;
import io.loomgate.http2.StreamBody;
import io.loomgate.http2.hpack.HeaderField;
import io.loomgate.http2.hpack.HpackDecoder;
import io.loomgate.net.IoWatchdog;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One HTTP/2 connection to an upstream, shared by as many requests as the upstream's
 * {@code SETTINGS_MAX_CONCURRENT_STREAMS} allows (at most {@link #MAX_STREAMS}). A virtual thread
 * reads its frames and hands each stream's to its {@link H2Call}; requests write through one
 * {@link FrameOutput}. A stream error ends that stream alone; a connection error, the upstream's
 * close or a {@code GOAWAY} ends the connection for new requests, and every stream it did not answer
 * fails (those the upstream refused unprocessed are marked so, and may be sent again).
 */
final class H2Session implements IoWatchdog.Watched {

    static final int MAX_STREAMS = 256;
    /**
     * Streams one connection carries; then it takes no new ones, and closes once its last ends. One
     * fewer than nginx's default {@code keepalive_requests} (1,000 for HTTP/2): at that count nginx
     * sends GOAWAY and closes, and answers it had begun were seen cut off as it did (0.5% of an h2load
     * run through loomgate, and the same with curl and Go's client: curl #5611, golang/go #18112).
     * Envoy's {@code max_requests_per_connection} is the same remedy.
     */
    static final int STREAMS_PER_CONNECTION = 999;
    private static final int STREAM_WINDOW = 256 * 1024;
    private static final int CONNECTION_WINDOW = 1024 * 1024;
    private static final int MAX_HEADER_LIST = 64 * 1024;
    private static final long IDLE_LIMIT_NANOS = Http1Client.MAX_IDLE.toNanos();

    final Origin origin;
    private final Socket socket;
    private final StallClock output;
    private final FrameOutput out;
    private final FrameReader reader;
    private final HpackDecoder hpack = new HpackDecoder(4_096, MAX_HEADER_LIST);
    private final HeaderBlocks blocks = new HeaderBlocks(MAX_HEADER_LIST, 32);
    private final Map<Integer, H2Call> calls = new ConcurrentHashMap<>();
    private final ReentrantLock opening = new ReentrantLock();
    private final AtomicInteger reserved = new AtomicInteger();
    private final ReceiveWindows receiving;
    private final long idleNanos;
    private final Runnable onClose;
    private final OriginStats.Counts counts;
    private final IoWatchdog watchdog;
    private int nextId = 1;
    private int opened;   // streams started, under the opening lock
    private volatile boolean retired;
    private volatile boolean usable = true;
    private final java.util.concurrent.atomic.AtomicBoolean shut = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile long lastActive = System.nanoTime();

    private H2Session(Origin origin, Socket socket, long idleNanos, IoWatchdog watchdog, OriginStats.Counts counts, Runnable onClose)
            throws IOException {
        this.origin = origin;
        this.counts = counts;
        this.watchdog = watchdog;
        this.socket = socket;
        this.idleNanos = idleNanos;
        this.onClose = onClose;
        this.output = new StallClock(socket.getOutputStream());
        this.out = new FrameOutput(output, idleNanos);
        this.reader = new FrameReader(new java.io.BufferedInputStream(socket.getInputStream(), 16 * 1024));
        this.receiving = new ReceiveWindows(out, STREAM_WINDOW, CONNECTION_WINDOW);
    }

    /**
     * Connects, speaks the preface and this side's SETTINGS, and starts the reader; requests may go
     * at once.
     *
     * @throws H2Client.NotChosen when the origin is {@code auto} and ALPN chose HTTP/1.1
     */
    static H2Session open(Origin origin, int connectTimeoutMs, long idleNanos, IoWatchdog watchdog, OriginStats.Counts counts,
                          java.util.function.Consumer<H2Session> onClose) throws IOException {
        Socket s = H2Dial.connect(origin, connectTimeoutMs, watchdog);
        try {
            H2Session[] self = new H2Session[1];
            H2Session session = new H2Session(origin, s, idleNanos, watchdog, counts, () -> onClose.accept(self[0]));
            self[0] = session;
            session.output.write(FrameReader.PREFACE);
            session.out.frame(new Frame.Settings(false, List.of(
                    new Frame.Setting(Frame.Setting.ENABLE_PUSH, 0),
                    new Frame.Setting(Frame.Setting.INITIAL_WINDOW_SIZE, STREAM_WINDOW),
                    new Frame.Setting(Frame.Setting.MAX_HEADER_LIST_SIZE, MAX_HEADER_LIST))));
            session.out.frame(new Frame.WindowUpdate(0, CONNECTION_WINDOW - 65_535));
            watchdog.watch(session);
            Thread.ofVirtual().name("loomgate-h2-" + origin.key()).start(session::readAll);
            return session;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** Takes a place for one more stream, if the upstream's limit leaves one and the connection takes new streams. */
    boolean tryReserve() {
        long limit = Math.min(MAX_STREAMS, out.peerMaxConcurrentStreams());
        for (int n = reserved.get(); usable && n < limit; n = reserved.get()) {
            if (reserved.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Opens a stream with the request's HEADERS (ending the stream when it has no body), on a place reserved; the place is given back when it fails. */
    H2Call start(String method, List<HeaderField> fields, boolean endStream) throws IOException {
        opening.lock();
        try {
            if (!usable) {
                reserved.decrementAndGet();   // the place taken goes back
                throw new H2Refused("the HTTP/2 connection to " + origin.key() + " takes no new streams");
            }
            int id = nextId;
            nextId += 2;
            if (nextId < 0) {
                usable = false;   // stream ids ran out: the next request opens another connection
            }
            if (++opened >= STREAMS_PER_CONNECTION) {
                retired = true;
                usable = false;   // the next request opens another connection; this one closes when its last stream ends
            }
            H2Call call = new H2Call(id, method, new StreamBody(id, receiving::credit, idleNanos, false));
            calls.put(id, call);
            receiving.open(id);
            out.open(id);
            try {
                out.headers(id, fields, endStream, () -> call.localDone = endStream);
            } catch (IOException e) {
                shut(e);
                throw e;
            }
            lastActive = System.nanoTime();
            return call;
        } finally {
            opening.unlock();
        }
    }

    /** Request body octets on the call's stream, as the upstream's windows allow; {@code end} ends the stream. */
    void data(H2Call call, byte[] b, int off, int len, boolean end) throws IOException {
        out.data(call.id, b, off, len, end, () -> call.localDone = true);
    }

    /** The call is over on this side: its stream is reset with CANCEL unless it ended both ways. */
    void cancel(H2Call call) {
        if (!(call.localDone && call.remoteDone)) {
            reset(call.id, ErrorCode.CANCEL);
        }
        done(call);
    }

    /** The call is done with: its place goes back (once). A request still sending is cut short. */
    void done(H2Call call) {
        if (calls.remove(call.id) == null) {
            return;
        }
        if (!call.localDone) {
            reset(call.id, ErrorCode.CANCEL);   // the answer is whole; the rest of the request is not wanted
        }
        receiving.forget(call.id);
        out.forget(call.id);
        lastActive = System.nanoTime();
        if (reserved.decrementAndGet() == 0 && retired && calls.isEmpty()) {
            out.goAway(0, ErrorCode.NO_ERROR, "retired");
            shut(new EOFException("the HTTP/2 connection was retired after " + STREAMS_PER_CONNECTION + " streams"));
        }
    }

    private void reset(int id, ErrorCode code) {
        H2Call call = calls.get(id);
        if (call != null) {
            call.localDone = true;
        }
        counts.h2Resets.increment();
        try {
            out.frame(new Frame.RstStream(id, code));
        } catch (IOException e) {
            // the connection is ending; the stream with it
        }
    }

    private void readAll() {
        shut(H2Answers.readAll(this, reader, blocks, hpack, MAX_HEADER_LIST));
    }

    /** The upstream broke the protocol on one stream: it is reset, and its call fails with {@code why}. */
    void streamError(int id, ErrorCode code, IOException why) {
        H2Call call = calls.get(id);
        reset(id, code);
        if (call != null) {
            call.fail(why, false);
            done(call);
        }
    }

    H2Call call(int id) {
        return calls.get(id);
    }

    FrameOutput out() {
        return out;
    }

    ReceiveWindows receiving() {
        return receiving;
    }

    /** A GOAWAY: no new streams; those above {@code lastStreamId} were not processed. */
    void goAway(int lastStreamId, ErrorCode code) {
        usable = false;
        for (H2Call call : calls.values()) {
            if (call.id > lastStreamId) {
                call.fail(new H2Refused("the upstream's GOAWAY (" + code + ") came before it processed stream " + call.id), true);
                done(call);
            }
        }
    }

    /** The connection is over: every stream still open fails with {@code why}. */
    void shut(IOException why) {
        usable = false;
        if (!shut.compareAndSet(false, true)) {
            return;
        }
        out.close();
        try {
            socket.close();
        } catch (IOException e) {
            // closed already
        }
        for (H2Call call : calls.values()) {
            call.fail(why, false);
            done(call);
        }
        watchdog.unwatch(this);
        onClose.run();
    }

    boolean usable() {
        return usable;
    }

    int active() {
        return reserved.get();
    }

    @Override
    public boolean closeIfWriteStalled(long nowNanos) {
        if (output.stalled(nowNanos, idleNanos)) {
            shut(new SocketTimeoutException("a write to " + origin.key() + " made no progress for its idle timeout"));
            return true;
        }
        return false;
    }

    @Override
    public void tick(long nowNanos) {
        if (reserved.get() == 0 && nowNanos - lastActive > IDLE_LIMIT_NANOS) {
            out.goAway(0, ErrorCode.NO_ERROR, "idle");
            shut(new EOFException("the idle HTTP/2 connection was closed"));
        }
    }

    @Override
    public String peer() {
        return origin.key() + " (h2)";
    }
}
