package io.loomgate.core.call;

import java.util.Locale;

/** The overall result of an aggregation, and the HTTP status it is answered with. */
public enum Status {
    /** Every part the policy needed succeeded. */
    OK(200),
    /** The answer is complete enough, but a fallback stands in for at least one part. */
    DEGRADED(200),
    /** A part the policy needed failed (or, under "any", all of them did). */
    FAILED(502),
    /** The deadline passed before the policy could decide. */
    TIMEOUT(504);

    private final int httpStatus;

    Status(int httpStatus) {
        this.httpStatus = httpStatus;
    }

    public int httpStatus() {
        return httpStatus;
    }

    /** {@code ok}, {@code degraded}, {@code failed} or {@code timeout}, as in JSON. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
