package io.loomgate.http2;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A stream's body as its reader takes it (a server's handler reading a request, a client reading an
 * answer): the DATA the connection's reader hands over, in order, at most the stream's receive
 * window of it at once (the peer may not send more), each octet handed back to the connection
 * ({@link Credit}) once read, so the peer's windows reopen as the reader reads and not before. A
 * peer that stops sending for the idle timeout fails the read; a stream reset or a connection lost
 * fails it at once.
 */
public final class StreamBody extends InputStream {

    /** Where octets read go back to: the peer may send that many more. */
    public interface Credit {
        void read(int streamId, int octets, boolean streamEnded);
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
    private final int streamId;
    private final Credit credit;
    private final long waitNanos;
    private int offset;
    private boolean ended;
    private boolean discarded;
    private IOException failed;
    private long received;

    public StreamBody(int streamId, Credit credit, long waitNanos, boolean endedAlready) {
        this.streamId = streamId;
        this.credit = credit;
        this.waitNanos = waitNanos;
        this.ended = endedAlready;
    }

    /** DATA for this stream (the reader's thread); dropped, and its octets given back, once its reader has left. */
    public void offer(byte[] data, boolean last) {
        boolean giveBack;
        lock.lock();
        try {
            received += data.length;
            giveBack = discarded;
            if (!discarded && data.length > 0) {
                chunks.add(data);
            }
            ended |= last;
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
        if (giveBack && data.length > 0) {
            credit.read(streamId, data.length, true);
        }
    }

    /** The octets of DATA received so far, to check against the declared {@code content-length}. */
    public long received() {
        lock.lock();
        try {
            return received;
        } finally {
            lock.unlock();
        }
    }

    /** The stream was reset or its connection lost: a read fails with {@code why}. */
    public void fail(IOException why) {
        lock.lock();
        try {
            if (failed == null) {
                failed = why;
            }
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The reader is done with the body: what it left unread goes back to the connection's window. */
    public void discard() {
        int left = 0;
        lock.lock();
        try {
            discarded = true;
            for (byte[] c : chunks) {
                left += c.length;
            }
            left -= offset;
            chunks.clear();
            offset = 0;
        } finally {
            lock.unlock();
        }
        if (left > 0) {
            credit.read(streamId, left, true);
        }
    }

    /** Whether octets are here to read now, without waiting. */
    public boolean hasData() {
        lock.lock();
        try {
            return !chunks.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the peer ended its side of the stream (END_STREAM came), read to the end or not. */
    public boolean endReceived() {
        lock.lock();
        try {
            return ended;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        int n;
        boolean streamEnded;
        lock.lock();
        try {
            long until = System.nanoTime() + waitNanos;
            while (chunks.isEmpty() && !ended && failed == null) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    throw new SocketTimeoutException("no DATA on stream " + streamId + " for "
                            + TimeUnit.NANOSECONDS.toSeconds(waitNanos) + " s");
                }
                try {
                    arrived.awaitNanos(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted reading stream " + streamId + "'s body");
                }
            }
            if (failed != null) {
                throw failed;
            }
            if (chunks.isEmpty()) {
                return -1;
            }
            byte[] c = chunks.peek();
            n = Math.min(len, c.length - offset);
            System.arraycopy(c, offset, b, off, n);
            offset += n;
            if (offset == c.length) {
                chunks.poll();
                offset = 0;
            }
            streamEnded = ended;
        } finally {
            lock.unlock();
        }
        credit.read(streamId, n, streamEnded);
        return n;
    }
}
