package io.loomgate.http2;

import static io.loomgate.http2.ErrorCode.PROTOCOL_ERROR;
import static io.loomgate.http2.ErrorCode.REFUSED_STREAM;
import static io.loomgate.http2.ErrorCode.STREAM_CLOSED;

import java.util.HashMap;
import java.util.Map;

/**
 * The states of a server connection's streams (RFC 9113 section 5.1), and what each frame the
 * client sends may do to them: a client opens odd-numbered streams in increasing order, at most
 * {@code maxConcurrent} at once (one more is refused with REFUSED_STREAM); DATA and trailers come
 * only while its side is open; a frame on a stream that was never opened is a connection error.
 * It also keeps the rapid-reset guard (CVE-2023-44487): streams the client resets before they are
 * answered draw from a bucket of {@code resetBurst} refilled at {@code resetsPerSecond}, and an empty
 * bucket ends the connection with ENHANCE_YOUR_CALM. Not thread-safe: its connection guards it.
 */
public final class ServerStreams {

    /** A stream's state as this side sees it; a closed stream is forgotten. */
    public enum State { OPEN, HALF_CLOSED_REMOTE, HALF_CLOSED_LOCAL }

    private final Map<Integer, State> streams = new HashMap<>();
    private final long maxConcurrent;
    private final double resetsPerSecond;
    private final TokenBucket resets;
    private int lastOpened;

    public ServerStreams(long maxConcurrent, int resetBurst, double resetsPerSecond, long nowNanos) {
        this.maxConcurrent = maxConcurrent;
        this.resetsPerSecond = resetsPerSecond;
        this.resets = new TokenBucket(resetBurst, resetsPerSecond, nowNanos);
    }

    /** Streams open now, in any of the states. */
    public int active() {
        return streams.size();
    }

    /** The highest stream the client opened: GOAWAY's last stream id. */
    public int lastOpened() {
        return lastOpened;
    }

    public State state(int id) {
        return streams.get(id);
    }

    /** A whole header block on stream {@code id}: a new request, or its trailers. */
    public void headers(int id, boolean endStream) throws Http2Exception {
        State s = streams.get(id);
        if (s != null) {
            if (s == State.HALF_CLOSED_REMOTE) {
                throw Http2Exception.stream(STREAM_CLOSED, id, "a header block after the client ended stream " + id);
            }
            if (!endStream) {
                throw Http2Exception.stream(PROTOCOL_ERROR, id, "trailers without END_STREAM on stream " + id);
            }
            closeRemote(id, s);
            return;
        }
        if ((id & 1) == 0) {
            throw Http2Exception.connection(PROTOCOL_ERROR, "a client opened the even stream " + id);
        }
        if (id <= lastOpened) {
            throw Http2Exception.connection(PROTOCOL_ERROR, "stream " + id + " opened after stream " + lastOpened);
        }
        lastOpened = id;
        if (streams.size() >= maxConcurrent) {
            throw Http2Exception.stream(REFUSED_STREAM, id, "past " + maxConcurrent + " concurrent streams");
        }
        streams.put(id, endStream ? State.HALF_CLOSED_REMOTE : State.OPEN);
    }

    /** A DATA frame on stream {@code id}. */
    public void data(int id, boolean endStream) throws Http2Exception {
        State s = streams.get(id);
        if (s == null) {
            idleIsAConnectionError(id, "DATA");
            throw Http2Exception.stream(STREAM_CLOSED, id, "DATA on closed stream " + id);
        }
        if (s == State.HALF_CLOSED_REMOTE) {
            throw Http2Exception.stream(STREAM_CLOSED, id, "DATA after the client ended stream " + id);
        }
        if (endStream) {
            closeRemote(id, s);
        }
    }

    /** A WINDOW_UPDATE on stream {@code id} (not 0): fine on any stream that was opened. */
    public void windowUpdate(int id) throws Http2Exception {
        idleIsAConnectionError(id, "WINDOW_UPDATE");
    }

    /**
     * The client reset stream {@code id}. A stream it resets before its answer ended draws from the
     * rapid-reset bucket; one whose answer had ended (half-closed on this side) does not.
     *
     * @return whether the stream's answer had not ended (its work is to be cancelled)
     */
    public boolean reset(int id, long nowNanos) throws Http2Exception {
        idleIsAConnectionError(id, "RST_STREAM");
        State was = streams.remove(id);
        if (was == null || was == State.HALF_CLOSED_LOCAL) {
            return false;
        }
        if (!resets.take(nowNanos)) {
            throw Http2Exception.calm(Flood.RAPID_RESET, "streams reset faster than " + resetsPerSecond + " a second");
        }
        return true;
    }

    /** This side sent END_STREAM on stream {@code id}: the answer is whole. */
    public void endLocal(int id) {
        State s = streams.get(id);
        if (s == State.HALF_CLOSED_REMOTE) {
            streams.remove(id);
        } else if (s == State.OPEN) {
            streams.put(id, State.HALF_CLOSED_LOCAL);
        }
    }

    /** This side reset stream {@code id}: it is closed. */
    public void resetLocal(int id) {
        streams.remove(id);
    }

    private void closeRemote(int id, State s) {
        if (s == State.HALF_CLOSED_LOCAL) {
            streams.remove(id);
        } else {
            streams.put(id, State.HALF_CLOSED_REMOTE);
        }
    }

    private void idleIsAConnectionError(int id, String what) throws Http2Exception {
        if (id > lastOpened && !streams.containsKey(id)) {
            throw Http2Exception.connection(PROTOCOL_ERROR, what + " on stream " + id + ", which was never opened");
        }
    }
}
