package io.loomgate.http2;

import java.util.Locale;

/**
 * What a peer did too much of, for which a connection ends with {@code GOAWAY ENHANCE_YOUR_CALM}:
 * the HTTP/2 attacks that cost a server work and the attacker almost nothing.
 */
public enum Flood {
    /** Streams opened and reset before their answer (CVE-2023-44487). */
    RAPID_RESET,
    /** A header block spread over too many CONTINUATION frames, or too large (CVE-2024-27316 and kin). */
    CONTINUATION,
    /** SETTINGS frames, each of which demands an acknowledgement (CVE-2019-9515). */
    SETTINGS,
    /** PING frames, each of which demands an answer (CVE-2019-9512). */
    PING,
    /** PRIORITY frames, read and thrown away (CVE-2019-9513). */
    PRIORITY,
    /** Frames with nothing in them: empty DATA that does not end its stream (CVE-2019-9518). */
    EMPTY_FRAMES,
    /** WINDOW_UPDATE frames far beyond what the DATA sent could call for. */
    WINDOW_UPDATE;

    /** Its name in metrics: {@code rapid_reset}, {@code continuation}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
