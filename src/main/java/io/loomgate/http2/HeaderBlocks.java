package io.loomgate.http2;

import java.io.ByteArrayOutputStream;

/**
 * Joins a HEADERS frame and the CONTINUATION frames after it into one header block (RFC 9113
 * section 4.3 and 6.10), bounded in octets and in frames: the CONTINUATION flood (a block spread
 * over endless small frames, or one that never ends) closes the connection with ENHANCE_YOUR_CALM
 * before it costs more than {@code maxBlockOctets}. While a block is open, any frame but a
 * CONTINUATION of the same stream is a PROTOCOL_ERROR. A block cut off cannot be decoded, and
 * HPACK's tables would leave the peer's: every breach here ends the connection. Not thread-safe:
 * its connection's reader owns it.
 */
public final class HeaderBlocks {

    /** A whole header block, with what its HEADERS frame said. */
    public record Block(int streamId, byte[] block, boolean endStream, Frame.Priority priority) {
    }

    private final int maxBlockOctets;
    private final int maxFrames;
    private ByteArrayOutputStream open;
    private Frame.Headers first;
    private int frames;

    /**
     * @param maxBlockOctets the most a block may take before it is decoded
     * @param maxFrames      the most frames a block may be spread over
     */
    public HeaderBlocks(int maxBlockOctets, int maxFrames) {
        this.maxBlockOctets = maxBlockOctets;
        this.maxFrames = maxFrames;
    }

    /** Whether a block is open: only a CONTINUATION of its stream may come next. */
    public boolean open() {
        return open != null;
    }

    /** A HEADERS frame: its block, whole, or null when CONTINUATIONs must follow. */
    public Block headers(Frame.Headers h) throws Http2Exception {
        if (open()) {
            throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "a HEADERS frame inside stream " + first.streamId() + "'s header block");
        }
        if (h.endHeaders()) {
            check(h.block().length, 1);
            return new Block(h.streamId(), h.block(), h.endStream(), h.priority());
        }
        first = h;
        frames = 1;
        open = new ByteArrayOutputStream(Math.min(h.block().length * 2, maxBlockOctets));
        append(h.block());
        return null;
    }

    /** Any other frame while a block may be open: a CONTINUATION goes into it; the whole block once it ends. */
    public Block next(Frame f) throws Http2Exception {
        if (!open()) {
            if (f instanceof Frame.Continuation) {
                throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "a CONTINUATION frame with no header block open");
            }
            return null;
        }
        if (!(f instanceof Frame.Continuation c) || c.streamId() != first.streamId()) {
            throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR,
                    "a " + f.getClass().getSimpleName() + " frame inside stream " + first.streamId() + "'s header block");
        }
        frames++;
        append(c.block());
        if (!c.endHeaders()) {
            return null;
        }
        Block whole = new Block(first.streamId(), open.toByteArray(), first.endStream(), first.priority());
        open = null;
        first = null;
        return whole;
    }

    private void append(byte[] fragment) throws Http2Exception {
        check(open.size() + fragment.length, frames);
        open.writeBytes(fragment);
    }

    private void check(int octets, int framesSoFar) throws Http2Exception {
        if (octets > maxBlockOctets) {
            throw Http2Exception.calm(Flood.CONTINUATION, "a header block past " + maxBlockOctets + " octets");
        }
        if (framesSoFar > maxFrames) {
            throw Http2Exception.calm(Flood.CONTINUATION, "a header block spread over more than " + maxFrames + " frames");
        }
    }
}
