package io.loomgate.http2;

import java.util.List;

/**
 * One HTTP/2 frame (RFC 9113 section 6), as {@link FrameReader} reads it and {@link FrameWriter}
 * writes it. Padding is gone once read; {@code flowLength} keeps what the frame counted against
 * flow control (its whole payload, padding included).
 */
public sealed interface Frame {

    int DATA = 0x0;
    int HEADERS = 0x1;
    int PRIORITY = 0x2;
    int RST_STREAM = 0x3;
    int SETTINGS = 0x4;
    int PUSH_PROMISE = 0x5;
    int PING = 0x6;
    int GOAWAY = 0x7;
    int WINDOW_UPDATE = 0x8;
    int CONTINUATION = 0x9;

    /** The stream it belongs to; 0 for the connection. */
    int streamId();

    record Data(int streamId, byte[] data, boolean endStream, int flowLength) implements Frame {
    }

    /** @param priority the deprecated priority fields when the frame had them, else null */
    record Headers(int streamId, byte[] block, boolean endStream, boolean endHeaders, Priority priority) implements Frame {
    }

    /** A priority signal (deprecated by RFC 9113: read and checked, then ignored). */
    record Priority(int streamId, int dependency, boolean exclusive, int weight) implements Frame {
    }

    record RstStream(int streamId, ErrorCode code) implements Frame {
    }

    /** One SETTINGS parameter (RFC 9113 section 6.5.2); ids this side does not know are kept and ignored. */
    record Setting(int id, long value) {
        public static final int HEADER_TABLE_SIZE = 0x1;
        public static final int ENABLE_PUSH = 0x2;
        public static final int MAX_CONCURRENT_STREAMS = 0x3;
        public static final int INITIAL_WINDOW_SIZE = 0x4;
        public static final int MAX_FRAME_SIZE = 0x5;
        public static final int MAX_HEADER_LIST_SIZE = 0x6;
    }

    record Settings(boolean ack, List<Setting> values) implements Frame {
        @Override
        public int streamId() {
            return 0;
        }
    }

    record PushPromise(int streamId, int promisedStreamId, byte[] block, boolean endHeaders) implements Frame {
    }

    record Ping(boolean ack, long data) implements Frame {
        @Override
        public int streamId() {
            return 0;
        }
    }

    record GoAway(int lastStreamId, ErrorCode code, byte[] debug) implements Frame {
        @Override
        public int streamId() {
            return 0;
        }
    }

    record WindowUpdate(int streamId, int increment) implements Frame {
    }

    record Continuation(int streamId, byte[] block, boolean endHeaders) implements Frame {
    }

    /** A frame of a type this side does not know: read whole and ignored (RFC 9113 section 5.5). */
    record Unknown(int type, int streamId) implements Frame {
    }
}
