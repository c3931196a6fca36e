package io.loomgate.api;

import io.loomgate.core.call.Propagation;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import java.time.Duration;

/**
 * {@code X-Loomgate-Deadline-Ms}: the time a calling loomgate has left for this request. A loomgate
 * behind a loomgate takes the smaller of that and its own deadline, so it never works past its
 * caller's.
 */
final class CallerDeadline {

    static final String HEADER = Propagation.DEADLINE;
    private static final Duration MIN = Duration.ofMillis(1);

    private CallerDeadline() {
    }

    /** {@code own}, or the caller's deadline if that is sooner (at least 1 ms). A malformed header is a 400. */
    static Duration cap(Headers headers, Duration own) {
        String value = headers.first(HEADER);
        if (value == null) {
            return own;
        }
        long ms;
        try {
            ms = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            ms = -1;
        }
        if (ms < 0) {
            throw HttpError.badRequest("bad_header", HEADER + " must be a whole number of milliseconds, got '"
                    + HttpError.echo(value) + "'");
        }
        Duration caller = Duration.ofMillis(ms);
        if (caller.compareTo(own) >= 0) {
            return own;
        }
        return caller.compareTo(MIN) < 0 ? MIN : caller;
    }
}
