package io.loomgate.http2;

import static io.loomgate.http2.ErrorCode.FLOW_CONTROL_ERROR;
import static io.loomgate.http2.ErrorCode.FRAME_SIZE_ERROR;
import static io.loomgate.http2.ErrorCode.PROTOCOL_ERROR;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads HTTP/2 frames strictly (RFC 9113 section 4 and 6): a frame longer than this side's
 * {@code SETTINGS_MAX_FRAME_SIZE} is never read into memory; each type's stream id, length, flags,
 * padding and values are checked, and a breach is an {@link Http2Exception} saying whether the
 * connection or only the stream must end, with the code RFC 9113 names. What a frame means for a
 * stream's state is the connection's to judge, not the reader's.
 */
public final class FrameReader {

    /** The client's connection preface (RFC 9113 section 3.4), before its first SETTINGS. */
    public static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    static final int END_STREAM = 0x1;
    static final int ACK = 0x1;
    static final int END_HEADERS = 0x4;
    static final int PADDED = 0x8;
    static final int PRIORITY_FLAG = 0x20;

    private final InputStream in;
    private int maxFrameSize = 16_384;
    private final byte[] header = new byte[9];

    public FrameReader(InputStream in) {
        this.in = in;
    }

    /** The largest payload this side accepts: the SETTINGS_MAX_FRAME_SIZE it sent, once acknowledged. */
    public void maxFrameSize(int size) {
        maxFrameSize = size;
    }

    /** The next frame; null at the end of the stream between frames. */
    public Frame read() throws IOException {
        int n = in.readNBytes(header, 0, 9);
        if (n == 0) {
            return null;
        }
        if (n < 9) {
            throw new EOFException("the connection ended inside a frame's header");
        }
        int length = (header[0] & 0xff) << 16 | (header[1] & 0xff) << 8 | header[2] & 0xff;
        int type = header[3] & 0xff;
        int flags = header[4] & 0xff;
        int stream = ((header[5] & 0x7f) << 24 | (header[6] & 0xff) << 16 | (header[7] & 0xff) << 8 | header[8] & 0xff);
        if (length > maxFrameSize) {
            throw Http2Exception.connection(FRAME_SIZE_ERROR, "a frame of " + length + " octets, past the " + maxFrameSize + " allowed");
        }
        byte[] payload = in.readNBytes(length);
        if (payload.length < length) {
            throw new EOFException("the connection ended inside a frame");
        }
        return Frames.parse(type, flags, stream, payload);
    }

    /** Each type's checks, over a payload read whole. */
    static final class Frames {

        private Frames() {
        }

        static Frame parse(int type, int flags, int stream, byte[] p) throws Http2Exception {
            return switch (type) {
                case Frame.DATA -> {
                    onStream(stream, "DATA");
                    int[] span = unpad(flags, p, 0, "DATA");
                    yield new Frame.Data(stream, Arrays.copyOfRange(p, span[0], span[1]), (flags & END_STREAM) != 0, p.length);
                }
                case Frame.HEADERS -> {
                    onStream(stream, "HEADERS");
                    boolean prioritized = (flags & PRIORITY_FLAG) != 0;
                    int[] span = unpad(flags, p, prioritized ? 5 : 0, "HEADERS");
                    Frame.Priority priority = prioritized ? priority(stream, p, span[0] - 5) : null;
                    yield new Frame.Headers(stream, Arrays.copyOfRange(p, span[0], span[1]), (flags & END_STREAM) != 0,
                            (flags & END_HEADERS) != 0, priority);
                }
                case Frame.PRIORITY -> {
                    onStream(stream, "PRIORITY");
                    if (p.length != 5) {
                        throw Http2Exception.stream(FRAME_SIZE_ERROR, stream, "a PRIORITY frame of " + p.length + " octets");
                    }
                    yield priority(stream, p, 0);
                }
                case Frame.RST_STREAM -> {
                    onStream(stream, "RST_STREAM");
                    exactly(p, 4, "RST_STREAM");
                    yield new Frame.RstStream(stream, ErrorCode.of(int32(p, 0)));
                }
                case Frame.SETTINGS -> settings(flags, stream, p);
                case Frame.PUSH_PROMISE -> {
                    onStream(stream, "PUSH_PROMISE");
                    int[] span = unpad(flags, p, 4, "PUSH_PROMISE");
                    yield new Frame.PushPromise(stream, int32(p, span[0] - 4) & 0x7fffffff, Arrays.copyOfRange(p, span[0], span[1]),
                            (flags & END_HEADERS) != 0);
                }
                case Frame.PING -> {
                    onConnection(stream, "PING");
                    exactly(p, 8, "PING");
                    yield new Frame.Ping((flags & ACK) != 0, (long) int32(p, 0) << 32 | (int32(p, 4) & 0xffffffffL));
                }
                case Frame.GOAWAY -> {
                    onConnection(stream, "GOAWAY");
                    if (p.length < 8) {
                        throw Http2Exception.connection(FRAME_SIZE_ERROR, "a GOAWAY frame of " + p.length + " octets");
                    }
                    yield new Frame.GoAway(int32(p, 0) & 0x7fffffff, ErrorCode.of(int32(p, 4)), Arrays.copyOfRange(p, 8, p.length));
                }
                case Frame.WINDOW_UPDATE -> {
                    exactly(p, 4, "WINDOW_UPDATE");
                    int increment = int32(p, 0) & 0x7fffffff;
                    if (increment == 0) {
                        String why = "a WINDOW_UPDATE of 0";
                        throw stream == 0 ? Http2Exception.connection(PROTOCOL_ERROR, why) : Http2Exception.stream(PROTOCOL_ERROR, stream, why);
                    }
                    yield new Frame.WindowUpdate(stream, increment);
                }
                case Frame.CONTINUATION -> {
                    onStream(stream, "CONTINUATION");
                    yield new Frame.Continuation(stream, p, (flags & END_HEADERS) != 0);
                }
                default -> new Frame.Unknown(type, stream);
            };
        }

        private static Frame settings(int flags, int stream, byte[] p) throws Http2Exception {
            onConnection(stream, "SETTINGS");
            boolean ack = (flags & ACK) != 0;
            if (ack && p.length != 0) {
                throw Http2Exception.connection(FRAME_SIZE_ERROR, "a SETTINGS acknowledgement with a payload");
            }
            if (p.length % 6 != 0) {
                throw Http2Exception.connection(FRAME_SIZE_ERROR, "a SETTINGS frame of " + p.length + " octets, not a multiple of 6");
            }
            List<Frame.Setting> values = new ArrayList<>(p.length / 6);
            for (int at = 0; at < p.length; at += 6) {
                int id = (p[at] & 0xff) << 8 | p[at + 1] & 0xff;
                long value = int32(p, at + 2) & 0xffffffffL;
                switch (id) {
                    case Frame.Setting.ENABLE_PUSH -> {
                        if (value > 1) {
                            throw Http2Exception.connection(PROTOCOL_ERROR, "SETTINGS_ENABLE_PUSH of " + value);
                        }
                    }
                    case Frame.Setting.INITIAL_WINDOW_SIZE -> {
                        if (value > Integer.MAX_VALUE) {
                            throw Http2Exception.connection(FLOW_CONTROL_ERROR, "SETTINGS_INITIAL_WINDOW_SIZE of " + value);
                        }
                    }
                    case Frame.Setting.MAX_FRAME_SIZE -> {
                        if (value < 16_384 || value > 16_777_215) {
                            throw Http2Exception.connection(PROTOCOL_ERROR, "SETTINGS_MAX_FRAME_SIZE of " + value);
                        }
                    }
                    default -> {
                    }
                }
                values.add(new Frame.Setting(id, value));
            }
            return new Frame.Settings(ack, List.copyOf(values));
        }

        private static Frame.Priority priority(int stream, byte[] p, int at) throws Http2Exception {
            int word = int32(p, at);
            int dependency = word & 0x7fffffff;
            if (dependency == stream) {
                throw Http2Exception.stream(PROTOCOL_ERROR, stream, "a stream that depends on itself");
            }
            return new Frame.Priority(stream, dependency, word < 0, (p[at + 4] & 0xff) + 1);
        }

        /** The payload's start and end once the pad length and {@code fixed} octets after it are taken off. */
        private static int[] unpad(int flags, byte[] p, int fixed, String what) throws Http2Exception {
            int start = 0;
            int pad = 0;
            if ((flags & PADDED) != 0) {
                if (p.length < 1) {
                    throw Http2Exception.connection(FRAME_SIZE_ERROR, "a padded " + what + " frame with no pad length");
                }
                pad = p[0] & 0xff;
                start = 1;
            }
            if (start + fixed + pad > p.length) {
                throw Http2Exception.connection(PROTOCOL_ERROR, "a " + what + " frame whose padding and fields exceed its " + p.length + " octets");
            }
            return new int[] {start + fixed, p.length - pad};
        }

        private static void onStream(int stream, String what) throws Http2Exception {
            if (stream == 0) {
                throw Http2Exception.connection(PROTOCOL_ERROR, "a " + what + " frame on stream 0");
            }
        }

        private static void onConnection(int stream, String what) throws Http2Exception {
            if (stream != 0) {
                throw Http2Exception.connection(PROTOCOL_ERROR, "a " + what + " frame on stream " + stream);
            }
        }

        private static void exactly(byte[] p, int length, String what) throws Http2Exception {
            if (p.length != length) {
                throw Http2Exception.connection(FRAME_SIZE_ERROR, "a " + what + " frame of " + p.length + " octets, not " + length);
            }
        }

        static int int32(byte[] p, int at) {
            return (p[at] & 0xff) << 24 | (p[at + 1] & 0xff) << 16 | (p[at + 2] & 0xff) << 8 | p[at + 3] & 0xff;
        }
    }
}
