package io.loomgate.api;

import io.loomgate.core.call.Propagation;
import io.loomgate.grpc.GrpcTimeout;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code X-Loomgate-Deadline-Ms}: the time a calling loomgate has left for this request. A loomgate
 * behind a loomgate takes the smaller of that and its own deadline, so it never works past its
 * caller's; a gRPC client's {@code grpc-timeout} is taken the same way.
 */
final class CallerDeadline {

    static final String HEADER = Propagation.DEADLINE;
    private static final Duration MIN = Duration.ofMillis(1);

    private CallerDeadline() {
    }

    /**
     * {@code own}, or the caller's deadline if that is sooner (at least 1 ms): a calling loomgate's
     * {@code X-Loomgate-Deadline-Ms} (malformed, a 400), or a gRPC client's {@code grpc-timeout}
     * (malformed, not a timeout: gRPC's own rule).
     */
    static Duration cap(Headers headers, Duration own) {
        Optional<Duration> grpc = GrpcTimeout.parse(headers.first("grpc-timeout"));
        if (grpc.isPresent() && grpc.get().compareTo(own) < 0) {
            own = grpc.get().compareTo(MIN) < 0 ? MIN : grpc.get();
        }
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
