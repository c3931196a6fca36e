package io.loomgate.client;

import io.loomgate.http.Headers;
import io.loomgate.http2.StreamBody;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One request on a shared HTTP/2 connection to an upstream ({@link H2Session}), as the connection's
 * reader fills it in: the answer's head, its body ({@link StreamBody}, at most the stream's window of
 * it held), its trailers, or the failure that ended it (a reset, the connection lost, a malformed
 * answer). The caller's thread waits for the head here; the body is read through
 * {@link H2ResponseBody}.
 */
final class H2Call {

    final int id;
    /** The request's method: a HEAD's answer has no body, whatever it says. */
    final String method;
    final StreamBody body;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private ResponseHead head;
    /** Interim answers (102, 103) come, for the caller's thread to pass on while it waits for the head: at most {@link #INTERIM_LIMIT}. */
    private final java.util.ArrayDeque<ResponseHead> interims = new java.util.ArrayDeque<>();
    private static final int INTERIM_LIMIT = 8;
    private Framing framing;
    private Headers trailers = Headers.EMPTY;
    private IOException failed;
    private boolean refused;
    private long declared = -1;
    private long received;
    /** This side sent END_STREAM or RST_STREAM: nothing more goes out on it. */
    volatile boolean localDone;
    /** The upstream ended its side (END_STREAM or RST_STREAM), or the connection ended. */
    volatile boolean remoteDone;

    H2Call(int id, String method, StreamBody body) {
        this.id = id;
        this.method = method;
        this.body = body;
    }

    /** The answer's head came (the reader's thread); a HEAD's, a 204's or a 304's body is empty whatever it says. */
    void head(ResponseHead h, Framing f, long declaredLength) {
        lock.lock();
        try {
            head = h;
            framing = f;
            declared = declaredLength;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** An interim answer came (the reader's thread): kept for the waiting caller; past a few, dropped. */
    void interim(ResponseHead h) {
        lock.lock();
        try {
            if (interims.size() < INTERIM_LIMIT) {
                interims.add(h);
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    boolean hasHead() {
        lock.lock();
        try {
            return head != null;
        } finally {
            lock.unlock();
        }
    }

    /** DATA for the answer: its octets counted against the declared length before the reader may see them. */
    void data(byte[] data, boolean end) throws MalformedResponse {
        long total = received += data.length;
        if (declared >= 0 && (total > declared || end && total != declared)) {
            throw new MalformedResponse("an HTTP/2 answer with " + total + (end ? "" : " or more") + " octets of DATA where content-length said "
                    + declared);
        }
        body.offer(data, end);
        if (end) {
            remoteDone = true;
        }
    }

    /** The trailers that end the answer. */
    void trailers(Headers fields) throws MalformedResponse {
        if (declared >= 0 && received != declared) {
            throw new MalformedResponse("an HTTP/2 answer ended after " + received + " octets where content-length said " + declared);
        }
        lock.lock();
        try {
            trailers = fields;
        } finally {
            lock.unlock();
        }
        body.offer(new byte[0], true);
        remoteDone = true;
    }

    Headers trailers() {
        lock.lock();
        try {
            return trailers;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The stream ended without a whole answer: a head not yet read fails with {@code why}, and a
     * body being read fails with it too. {@code refused}: the upstream did not process the request
     * (RST_STREAM REFUSED_STREAM, or a GOAWAY below its id), so it may be sent again.
     */
    void fail(IOException why, boolean refusedByPeer) {
        lock.lock();
        try {
            if (failed == null) {
                failed = why;
                refused = refusedByPeer && head == null;
            }
            remoteDone = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        body.fail(why);
    }

    /** Whether the upstream refused the request before it processed any of it. */
    boolean refused() {
        lock.lock();
        try {
            return refused;
        } finally {
            lock.unlock();
        }
    }

    Framing framing() {
        lock.lock();
        try {
            return framing;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for the answer's head until the deadline {@code deadlineNanos} gives ({@link
     * System#nanoTime()}; it may move later once the request's body has gone), or longer while
     * {@code stillSending} says the body is still going (its writes have their own bound, the idle
     * timeout). Interim answers that come meanwhile go to {@code interim} on this thread, in order,
     * before the head is returned (the reader's thread never waits on the client).
     */
    ResponseHead awaitHead(java.util.function.LongSupplier deadlineNanos, java.util.function.BooleanSupplier stillSending,
                           io.loomgate.http.Interim interim) throws IOException {
        lock.lock();
        try {
            while (true) {
                ResponseHead early = interims.poll();
                if (early != null) {
                    lock.unlock();
                    try {
                        interim.send(early.status(), early.headers());
                    } finally {
                        lock.lock();
                    }
                    continue;
                }
                if (head != null || failed != null) {
                    break;
                }
                long left = deadlineNanos.getAsLong() - System.nanoTime();
                if (left <= 0 && !stillSending.getAsBoolean()) {
                    throw new SocketTimeoutException("no answer on HTTP/2 stream " + id + " by the deadline");
                }
                try {
                    changed.awaitNanos(left <= 0 ? TimeUnit.MILLISECONDS.toNanos(100) : left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted waiting for HTTP/2 stream " + id + "'s answer");
                }
            }
            if (head == null) {
                throw failed;
            }
            return head;
        } finally {
            lock.unlock();
        }
    }
}
