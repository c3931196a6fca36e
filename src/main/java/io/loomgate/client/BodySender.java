package io.loomgate.client;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A request with a body, sent on a virtual thread of its own while the caller waits for the
 * answer's head: an upstream may answer before it has read the whole body (a 401 or a 413 to a
 * large upload), and one that answers as it reads is not deadlocked against a gateway that would
 * only read once it had written everything.
 *
 * <ul>
 *   <li>While the body goes, the head is awaited with no deadline: each write is bounded by the
 *       idle timeout ({@link io.loomgate.net.IoWatchdog}) and the client's body by the server's
 *       own idle timeout. Once the body is sent whole, the head has the request's timeout from then
 *       (Envoy's route timeout also starts at the request's end).</li>
 *   <li>A connection whose body was not sent whole when its answer's head came is never reused.</li>
 *   <li>A failure of the client's body (cut short, past the route's limit) closes the connection
 *       unless an answer came already: the upstream sees the request abandoned. When the upstream
 *       stops reading instead, the rest of the client's body is read and dropped (as far as the
 *       route's {@code maxBodyBytes}), so the client reads the answer rather than a reset.</li>
 *   <li>Whoever handed over the client's body {@link #await}s the sender before the client's
 *       connection reads anything else: two readers never share it.</li>
 * </ul>
 */
public final class BodySender implements UpstreamResponse.Sending {

    private static final System.Logger LOG = System.getLogger("loomgate");

    /** The longest {@link #await} waits: a client's body read stops by the server's idle timeout (30 s by default). */
    private static final Duration BOUND = Duration.ofSeconds(30);

    /** No body, or one already sent: nothing runs, nothing to wait for. */
    public static final BodySender NONE = new BodySender(null);

    private final Http1Connection connection;
    private final CountDownLatch ended = new CountDownLatch(1);
    /** Counted down when the reader has the answer's head, or has given up on it. */
    private final CountDownLatch headKnown = new CountDownLatch(1);
    private volatile IOException failure;
    private volatile boolean sent;
    private volatile boolean answered;

    private BodySender(Http1Connection connection) {
        this.connection = connection;
        if (connection == null) {
            sent = true;
            ended.countDown();
        }
    }

    /** Starts sending {@code request}'s head and body on {@code c}; the head then has {@code afterBody} once the body is sent. */
    public static BodySender start(Http1Connection c, OutgoingRequest request, boolean close, Duration afterBody) {
        BodySender s = new BodySender(c);
        c.sending(true);
        Thread.ofVirtual().name("loomgate-body-" + c.key).start(() -> s.run(request, close, afterBody));
        return s;
    }

    private void run(OutgoingRequest request, boolean close, Duration afterBody) {
        try {
            connection.send(request, close);
            sent = true;
            connection.bodySent(afterBody);
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException io ? io : new IOException(e);
            if (ClientBody.failed(e)) {
                if (!answered) {
                    connection.close();   // the upstream sees the request abandoned, and the head's reader stops
                }
            } else if (!(e instanceof SocketTimeoutException) && headCame()) {
                dropRest(request);   // the upstream answered and stopped reading: the client's connection is left at a request's start
            }
            LOG.log(Level.DEBUG, () -> connection.key + ": the request body was not sent whole: " + e);
        } finally {
            connection.sending(false);
            ended.countDown();
        }
    }

    /**
     * Reads and drops what is left of the client's body, as far as the route's {@code maxBodyBytes}
     * lets it ({@link ClientBody}): a client still sending then reads the answer instead of a reset.
     */
    private static void dropRest(OutgoingRequest request) {
        try {
            request.body().transferTo(java.io.OutputStream.nullOutputStream());
        } catch (IOException past) {
            // past the limit, cut short, or too slow: the server closes the client's connection after the answer
        }
    }

    /**
     * The answer's head came: a failure of the client's body no longer closes the connection.
     * Returns whether the whole body had gone out by then; if not, the answer came early and the
     * connection is never reused (as nginx: the upstream may close it, or not read the rest).
     */
    public boolean answered() {
        answered = true;
        headKnown.countDown();
        return sent;
    }

    /** Whether the answer's head came (waiting for the reader to know, at most 30 s). */
    private boolean headCame() {
        try {
            return headKnown.await(BOUND.toNanos(), TimeUnit.NANOSECONDS) && answered;
        } catch (InterruptedException e) {
            return false;
        }
    }

    /** The exchange failed after its head came (a malformed answer): nothing more is sent or read of the body here. */
    void abandon() {
        answered = false;
        headKnown.countDown();
        connection.close();
        await();
    }

    /**
     * What to throw when waiting for the head failed with {@code read}: the client's fault or a
     * stalled write, which closed the connection, before the read's own error.
     */
    public IOException failure(IOException read) {
        headKnown.countDown();
        connection.close();   // no answer will come: a write still blocked ends now
        await();
        IOException f = failure;
        boolean causedTheRead = read instanceof ClosedChannelException || read instanceof java.net.SocketException;
        return f != null && (ClientBody.failed(f) || f instanceof SocketTimeoutException || causedTheRead) ? f : read;
    }

    /**
     * Waits for the sender to stop (at most 30 s): the client's body is then no longer read here.
     * Call once the answer is done with (its connection closed unless the body went whole). An
     * interrupt is kept for the caller.
     */
    @Override
    public void await() {
        try {
            if (!ended.await(BOUND.toNanos(), TimeUnit.NANOSECONDS)) {
                LOG.log(Level.WARNING, () -> connection.key + ": a request body still being read after " + BOUND.toSeconds()
                        + " s; left to the client's idle timeout");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
