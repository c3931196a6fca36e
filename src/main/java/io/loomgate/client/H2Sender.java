package io.loomgate.client;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A request body sent as DATA on its HTTP/2 stream, on a virtual thread of its own while the caller
 * waits for the answer (and, for a streaming call, while the answer streams back: gRPC's
 * bidirectional calls need both at once), as {@link BodySender} does for HTTP/1.1. A failure of the
 * client's body resets the stream (the upstream sees the request abandoned) and is what the call
 * fails with; an upstream that answered and stopped the stream leaves the rest of the client's body
 * read and dropped, within the route's limit.
 */
final class H2Sender implements UpstreamResponse.Sending {

    private static final System.Logger LOG = System.getLogger("loomgate");
    private static final Duration BOUND = Duration.ofSeconds(30);

    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean going = true;
    /** When the whole body had gone ({@link System#nanoTime()}), or 0. */
    private volatile long sentAt;

    private H2Sender() {
    }

    static H2Sender start(H2Session session, H2Call call, OutgoingRequest request) {
        H2Sender s = new H2Sender();
        Thread.ofVirtual().name("loomgate-h2-body-" + call.id).start(() -> s.run(session, call, request));
        return s;
    }

    private void run(H2Session session, H2Call call, OutgoingRequest request) {
        byte[] buf = new byte[16 * 1024];
        try {
            for (int n; (n = request.body().read(buf)) >= 0; ) {
                if (n > 0) {
                    session.data(call, buf, 0, n, false);
                }
            }
            session.data(call, buf, 0, 0, true);
            sentAt = System.nanoTime();
        } catch (IOException | RuntimeException e) {
            IOException why = e instanceof IOException io ? io : new IOException(e);
            if (ClientBody.failed(e) || !call.hasHead()) {
                call.fail(why, false);   // the caller's wait for the head ends with the body's failure
                session.cancel(call);
            } else {
                dropRest(request);
            }
            LOG.log(Level.DEBUG, () -> "the request body on HTTP/2 stream " + call.id + " was not sent whole: " + e);
        } finally {
            going = false;
            ended.countDown();
        }
    }

    private static void dropRest(OutgoingRequest request) {
        try {
            request.body().transferTo(OutputStream.nullOutputStream());
        } catch (IOException past) {
            // past the limit, cut short, or too slow: the server closes the client's connection after the answer
        }
    }

    /** The head's deadline: {@code deadlineNanos}, or {@code afterBody} after the whole body went if that is later. */
    long deadline(long deadlineNanos, Duration afterBody) {
        long at = sentAt;
        return at == 0 ? deadlineNanos : Math.max(deadlineNanos, at + afterBody.toNanos());
    }

    /** Whether the body is still going. */
    boolean going() {
        return going;
    }

    @Override
    public void await() {
        try {
            if (!ended.await(BOUND.toNanos(), TimeUnit.NANOSECONDS)) {
                LOG.log(Level.WARNING, () -> "a request body on HTTP/2 still being read after " + BOUND.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
