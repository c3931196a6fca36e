package io.loomgate.http2;

/** HTTP/2's error codes (RFC 9113 section 7), as RST_STREAM and GOAWAY carry them. */
public enum ErrorCode {
    NO_ERROR(0x0), PROTOCOL_ERROR(0x1), INTERNAL_ERROR(0x2), FLOW_CONTROL_ERROR(0x3), SETTINGS_TIMEOUT(0x4),
    STREAM_CLOSED(0x5), FRAME_SIZE_ERROR(0x6), REFUSED_STREAM(0x7), CANCEL(0x8), COMPRESSION_ERROR(0x9),
    CONNECT_ERROR(0xa), ENHANCE_YOUR_CALM(0xb), INADEQUATE_SECURITY(0xc), HTTP_1_1_REQUIRED(0xd);

    private final int code;

    ErrorCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The code's name, or INTERNAL_ERROR for a code this side does not know (RFC 9113 section 7: treat it so). */
    public static ErrorCode of(int code) {
        for (ErrorCode c : values()) {
            if (c.code == code) {
                return c;
            }
        }
        return INTERNAL_ERROR;
    }
}
