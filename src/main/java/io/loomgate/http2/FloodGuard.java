package io.loomgate.http2;

/**
 * The bounds a server connection keeps on the frames that cost it work and the peer nothing (see
 * {@link Flood}): SETTINGS and PING, each answered, draw from one bucket ({@link #CONTROL_BURST},
 * refilled at {@link #CONTROL_PER_SECOND}); PRIORITY frames are allowed {@link #PRIORITY_PER_STREAM}
 * for each stream opened and as many before the first, as Envoy allows; WINDOW_UPDATEs
 * {@link #WINDOW_UPDATES_PER_DATA} for each DATA frame sent; and at most
 * {@link #EMPTY_IN_A_ROW} DATA frames in a row may carry nothing without ending their stream. Past
 * any of them the connection ends with ENHANCE_YOUR_CALM. Not thread-safe: the reader owns it.
 */
public final class FloodGuard {

    public static final int CONTROL_BURST = 200;
    public static final int CONTROL_PER_SECOND = 50;
    public static final int PRIORITY_PER_STREAM = 100;
    public static final int EMPTY_IN_A_ROW = 10;
    public static final int WINDOW_UPDATES_BASE = 100;
    public static final int WINDOW_UPDATES_PER_DATA = 10;

    private final TokenBucket control;
    private long priorities;
    private int emptyInARow;
    private long windowUpdates;

    public FloodGuard(long nowNanos) {
        this.control = new TokenBucket(CONTROL_BURST, CONTROL_PER_SECOND, nowNanos);
    }

    /** A SETTINGS frame that is not an acknowledgement, at {@code nowNanos}. */
    public void settings(long nowNanos) throws Http2Exception {
        if (!control.take(nowNanos)) {
            throw Http2Exception.calm(Flood.SETTINGS, "SETTINGS frames faster than " + CONTROL_PER_SECOND + " a second");
        }
    }

    /** A PING that is not an acknowledgement, at {@code nowNanos}. */
    public void ping(long nowNanos) throws Http2Exception {
        if (!control.take(nowNanos)) {
            throw Http2Exception.calm(Flood.PING, "PING frames faster than " + CONTROL_PER_SECOND + " a second");
        }
    }

    /** A PRIORITY frame, when {@code streamsOpened} streams were opened on the connection so far. */
    public void priority(int streamsOpened) throws Http2Exception {
        if (++priorities > (long) PRIORITY_PER_STREAM * (streamsOpened + 1)) {
            throw Http2Exception.calm(Flood.PRIORITY, "more than " + PRIORITY_PER_STREAM + " PRIORITY frames a stream");
        }
    }

    /**
     * A WINDOW_UPDATE, when this side has sent {@code dataFramesSent} DATA frames and the peer opened
     * {@code streamsOpened} streams: a peer opens windows as it reads what was sent, and may open a
     * stream's as it opens the stream, so it may send {@link #WINDOW_UPDATES_PER_DATA} for each DATA
     * frame, 2 for each stream, and {@link #WINDOW_UPDATES_BASE} besides (after Envoy's rule).
     */
    public void windowUpdate(long dataFramesSent, int streamsOpened) throws Http2Exception {
        long allowed = WINDOW_UPDATES_BASE + 2L * streamsOpened + WINDOW_UPDATES_PER_DATA * dataFramesSent;
        if (++windowUpdates > allowed) {
            throw Http2Exception.calm(Flood.WINDOW_UPDATE, "more than " + WINDOW_UPDATES_PER_DATA
                    + " WINDOW_UPDATE frames for each DATA frame sent");
        }
    }

    /** A DATA frame: one that carries nothing and does not end its stream counts toward a flood. */
    public void data(int octets, boolean endStream) throws Http2Exception {
        if (octets > 0 || endStream) {
            emptyInARow = 0;
        } else if (++emptyInARow > EMPTY_IN_A_ROW) {
            throw Http2Exception.calm(Flood.EMPTY_FRAMES, "more than " + EMPTY_IN_A_ROW + " empty DATA frames in a row");
        }
    }
}
