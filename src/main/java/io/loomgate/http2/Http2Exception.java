package io.loomgate.http2;

import java.io.IOException;

/**
 * A breach of HTTP/2's rules: a connection error (the connection ends with GOAWAY and this code)
 * or, when {@code streamId} is not 0, a stream error (that stream is reset with RST_STREAM).
 */
public final class Http2Exception extends IOException {

    private final ErrorCode code;
    private final int streamId;
    private final Flood flood;

    private Http2Exception(ErrorCode code, int streamId, String message, Flood flood) {
        super(message);
        this.code = code;
        this.streamId = streamId;
        this.flood = flood;
    }

    public static Http2Exception connection(ErrorCode code, String message) {
        return new Http2Exception(code, 0, message, null);
    }

    /** The peer flooded the connection with {@code flood}: a connection error, ENHANCE_YOUR_CALM. */
    public static Http2Exception calm(Flood flood, String message) {
        return new Http2Exception(ErrorCode.ENHANCE_YOUR_CALM, 0, message, flood);
    }

    public static Http2Exception stream(ErrorCode code, int streamId, String message) {
        return new Http2Exception(code, streamId, message, null);
    }

    public ErrorCode code() {
        return code;
    }

    /** The stream to reset; 0 for a connection error. */
    public int streamId() {
        return streamId;
    }

    public boolean connectionError() {
        return streamId == 0;
    }

    /** The flood that ended the connection; null for any other breach. */
    public Flood flood() {
        return flood;
    }
}
