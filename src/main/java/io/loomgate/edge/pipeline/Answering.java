package io.loomgate.edge.pipeline;

import io.loomgate.observe.event.Delivery;
import io.loomgate.http.StopReason;
import java.io.IOException;

/**
 * How one request's answer goes out, kept apart from what is known of the request ({@link Visit}):
 * whether its handler started, the status decided, the bytes written, the error code its body
 * named, and how the write ended ({@link Delivery}). The pipeline writes it; the accounting reads it.
 */
final class Answering {

    private boolean started;
    private int status = 500;
    private long bytesOut;
    private String reason = "";
    private Delivery delivery = Delivery.WHOLE;
    private IOException unfinished;

    boolean started() {
        return started;
    }

    void start() {
        started = true;
    }

    int status() {
        return status;
    }

    void status(int decided) {
        status = decided;
    }

    long bytesOut() {
        return bytesOut;
    }

    void wrote(long bytes) {
        bytesOut += bytes;
    }

    String reason() {
        return reason;
    }

    void reason(String code) {
        reason = code;
    }

    Delivery delivery() {
        return delivery;
    }

    /** Why the answer was not written whole, for the listener to drop the connection; null when it was. */
    IOException unfinished() {
        return unfinished;
    }

    /** The write ended early: the client went away (also the request's {@link StopReason}) or the upstream's body failed. */
    void ended(Delivery how, IOException why) {
        delivery = how;
        unfinished = why;
    }
}
