package io.loomgate.http2;

/**
 * HTTP/2 frames as bytes (RFC 9113 section 4.1 and 6), each header and payload in one array so a
 * frame goes out in one write. No padding and no priority are ever sent; a payload past the peer's
 * SETTINGS_MAX_FRAME_SIZE is the caller's to split (DATA into frames, a header block into
 * HEADERS and CONTINUATION).
 */
public final class FrameWriter {

    private FrameWriter() {
    }

    public static byte[] encode(Frame frame) {
        return switch (frame) {
            case Frame.Data d -> frame(Frame.DATA, d.endStream() ? FrameReader.END_STREAM : 0, d.streamId(), d.data());
            case Frame.Headers h -> frame(Frame.HEADERS, (h.endStream() ? FrameReader.END_STREAM : 0)
                    | (h.endHeaders() ? FrameReader.END_HEADERS : 0), h.streamId(), h.block());
            case Frame.Continuation c -> frame(Frame.CONTINUATION, c.endHeaders() ? FrameReader.END_HEADERS : 0, c.streamId(), c.block());
            case Frame.RstStream r -> frame(Frame.RST_STREAM, 0, r.streamId(), int32(r.code().code()));
            case Frame.Settings s -> {
                byte[] p = new byte[6 * s.values().size()];
                int at = 0;
                for (Frame.Setting v : s.values()) {
                    p[at] = (byte) (v.id() >>> 8);
                    p[at + 1] = (byte) v.id();
                    put32(p, at + 2, (int) v.value());
                    at += 6;
                }
                yield frame(Frame.SETTINGS, s.ack() ? FrameReader.ACK : 0, 0, p);
            }
            case Frame.Ping p -> {
                byte[] data = new byte[8];
                put32(data, 0, (int) (p.data() >>> 32));
                put32(data, 4, (int) p.data());
                yield frame(Frame.PING, p.ack() ? FrameReader.ACK : 0, 0, data);
            }
            case Frame.GoAway g -> {
                byte[] p = new byte[8 + g.debug().length];
                put32(p, 0, g.lastStreamId());
                put32(p, 4, g.code().code());
                System.arraycopy(g.debug(), 0, p, 8, g.debug().length);
                yield frame(Frame.GOAWAY, 0, 0, p);
            }
            case Frame.WindowUpdate w -> frame(Frame.WINDOW_UPDATE, 0, w.streamId(), int32(w.increment()));
            case Frame.Priority p -> {
                byte[] data = new byte[5];
                put32(data, 0, p.dependency() | (p.exclusive() ? 0x80000000 : 0));
                data[4] = (byte) (p.weight() - 1);
                yield frame(Frame.PRIORITY, 0, p.streamId(), data);
            }
            case Frame.PushPromise pp -> {
                byte[] data = new byte[4 + pp.block().length];
                put32(data, 0, pp.promisedStreamId());
                System.arraycopy(pp.block(), 0, data, 4, pp.block().length);
                yield frame(Frame.PUSH_PROMISE, pp.endHeaders() ? FrameReader.END_HEADERS : 0, pp.streamId(), data);
            }
            case Frame.Unknown u -> throw new IllegalArgumentException("an unknown frame type is never sent: " + u.type());
        };
    }

    private static byte[] frame(int type, int flags, int stream, byte[] payload) {
        byte[] f = new byte[9 + payload.length];
        f[0] = (byte) (payload.length >>> 16);
        f[1] = (byte) (payload.length >>> 8);
        f[2] = (byte) payload.length;
        f[3] = (byte) type;
        f[4] = (byte) flags;
        put32(f, 5, stream & 0x7fffffff);
        System.arraycopy(payload, 0, f, 9, payload.length);
        return f;
    }

    private static byte[] int32(int v) {
        byte[] b = new byte[4];
        put32(b, 0, v);
        return b;
    }

    private static void put32(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
