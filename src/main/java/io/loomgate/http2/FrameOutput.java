package io.loomgate.http2;

import io.loomgate.http2.hpack.HeaderField;
import io.loomgate.http2.hpack.HpackEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What an HTTP/2 connection sends, server's or client's, from any of its streams' threads, in
 * order: one lock over the socket's output, the HPACK encoder (whose table must see header blocks
 * in the order they go out) and the send windows, the connection's and each stream's. DATA waits
 * for both windows; a peer that leaves a window closed for the idle timeout fails the stream's
 * write, which is not a buffer held for it. The peer's settings live here too, changed only under
 * the lock.
 */
public final class FrameOutput {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition windowOpened = lock.newCondition();
    private final OutputStream out;
    private final long stallNanos;
    private final PeerSettings peer = new PeerSettings();
    private final HpackEncoder hpack = new HpackEncoder(4_096, true, HpackEncoder.Indexing.REUSED_ONLY);
    private final FlowWindow connection = new FlowWindow(0, 65_535);
    private final Map<Integer, FlowWindow> streams = new HashMap<>();
    /** Frames gathered for one write: a HEADERS waits here for the DATA that follows it. */
    private final byte[] pending = new byte[32 * 1024];
    private int count;
    private boolean closed;
    /** DATA frames sent on the connection, read by the WINDOW_UPDATE flood's bound. */
    private volatile long dataFrames;

    public FrameOutput(OutputStream out, long stallNanos) {
        this.out = out;
        this.stallNanos = stallNanos;
    }

    /** One frame, written and flushed. */
    public void frame(Frame f) throws IOException {
        lock.lock();
        try {
            write(FrameWriter.encode(f));
            flushNow();
        } finally {
            lock.unlock();
        }
    }

    /** What was gathered goes out now: a streamed answer's head before its body has come. */
    public void flush() throws IOException {
        lock.lock();
        try {
            flushNow();
        } finally {
            lock.unlock();
        }
    }

    /** A stream opened (by either side): its send window starts at the peer's initial window size. */
    public void open(int id) {
        lock.lock();
        try {
            streams.put(id, new FlowWindow(id, peer.initialWindowSize()));
        } finally {
            lock.unlock();
        }
    }

    /** The stream ended: a writer waiting for its window gives up. */
    public void forget(int id) {
        lock.lock();
        try {
            streams.remove(id);
            windowOpened.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A header block in a HEADERS frame and as many CONTINUATIONs as the peer's frame size needs;
     * with {@code endStream}, {@code ending} runs first, so the stream is closed on this side before
     * the peer can see it closed (and open the next one in its place).
     */
    public void headers(int id, List<HeaderField> fields, boolean endStream, Runnable ending) throws IOException {
        lock.lock();
        try {
            if (endStream) {
                ending.run();
            }
            byte[] block = hpack.encode(fields);
            int max = peer.maxFrameSize();
            int first = Math.min(block.length, max);
            write(FrameWriter.encode(new Frame.Headers(id, Arrays.copyOf(block, first), endStream, first == block.length, null)));
            for (int at = first; at < block.length; at += max) {
                int end = Math.min(block.length, at + max);
                write(FrameWriter.encode(new Frame.Continuation(id, Arrays.copyOfRange(block, at, end), end == block.length)));
            }
            if (endStream) {
                flushNow();   // else the DATA that follows goes in the same write
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * DATA on stream {@code id}, as the windows allow: what does not fit waits for a WINDOW_UPDATE.
     * With {@code endStream} the last frame ends the stream (an empty one when {@code len} is 0), and
     * {@code ending} runs just before it is written.
     */
    public void data(int id, byte[] b, int off, int len, boolean endStream, Runnable ending) throws IOException {
        lock.lock();
        try {
            do {
                FlowWindow stream = streams.get(id);
                if (stream == null || closed) {
                    throw new IOException("stream " + id + " was closed");
                }
                int n = (int) Math.min(Math.min(len, peer.maxFrameSize()), Math.min(connection.available(), stream.available()));
                if (n <= 0 && len > 0) {
                    awaitWindow(id);
                    continue;
                }
                n = Math.max(n, 0);
                connection.consume(n);
                stream.consume(n);
                boolean last = endStream && n == len;
                if (last) {
                    ending.run();
                }
                dataFrames++;
                write(FrameWriter.encode(new Frame.Data(id, Arrays.copyOfRange(b, off, off + n), last, n)));
                off += n;
                len -= n;
            } while (len > 0);
            flushNow();
        } finally {
            lock.unlock();
        }
    }

    private void awaitWindow(int id) throws IOException {
        flushNow();   // what is gathered goes while this stream waits
        try {
            if (windowOpened.awaitNanos(stallNanos) <= 0) {
                throw new SocketTimeoutException("the peer left stream " + id + "'s window closed for "
                        + TimeUnit.NANOSECONDS.toSeconds(stallNanos) + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while stream " + id + " waited for its window");
        }
    }

    /** The peer's SETTINGS: applied, every stream's window moved by the change, acknowledged. */
    public void settings(Frame.Settings s) throws IOException {
        lock.lock();
        try {
            long delta = peer.apply(s);
            if (delta != 0) {
                for (FlowWindow w : streams.values()) {
                    w.adjust(delta);
                }
            }
            hpack.peerMaxTableSize(peer.headerTableSize());
            windowOpened.signalAll();
            write(FrameWriter.encode(new Frame.Settings(true, List.of())));
            flushNow();
        } finally {
            lock.unlock();
        }
    }

    /** A WINDOW_UPDATE from the peer; one for a stream that ended is ignored. */
    public void windowUpdate(Frame.WindowUpdate w) throws Http2Exception {
        lock.lock();
        try {
            FlowWindow window = w.streamId() == 0 ? connection : streams.get(w.streamId());
            if (window != null) {
                window.increase(w.increment());
                windowOpened.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The last frame: GOAWAY with the last stream this side will answer, and why. */
    public void goAway(int lastStreamId, ErrorCode code, String why) {
        try {
            frame(new Frame.GoAway(lastStreamId, code, why.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            // the peer went first; nothing is left to tell it
        }
    }

    /** The peer's SETTINGS_MAX_CONCURRENT_STREAMS ({@link PeerSettings#UNLIMITED} until it says). */
    public long peerMaxConcurrentStreams() {
        lock.lock();
        try {
            return peer.maxConcurrentStreams();
        } finally {
            lock.unlock();
        }
    }

    public long dataFramesSent() {
        return dataFrames;
    }

    /** The connection is over: writers waiting for a window give up. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            windowOpened.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void write(byte[] frame) throws IOException {
        if (frame.length > pending.length - count) {
            flushNow();
        }
        if (frame.length >= pending.length) {
            out.write(frame);
            return;
        }
        System.arraycopy(frame, 0, pending, count, frame.length);
        count += frame.length;
    }

    /** Writes what is gathered, in one write, under the lock. */
    private void flushNow() throws IOException {
        if (count > 0) {
            int n = count;
            count = 0;   // a failed write loses them: the connection is broken anyway
            out.write(pending, 0, n);
        }
        out.flush();
    }
}
