package io.loomgate.aggregate;

import io.loomgate.config.Durations;
import io.loomgate.service.ServiceFailure;
import io.loomgate.service.ServiceName;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/** Words for what went wrong, safe to show a client: no class names, no stack traces. */
final class Failures {

    private Failures() {
    }

    /** A part's error: the service's own message, or a neutral one for an unexpected exception. */
    static String describe(ServiceName service, Throwable error) {
        if (error instanceof ServiceFailure f) {
            return f.getMessage();
        }
        return service.wire() + ": unexpected error (logged with the request id)";
    }

    static String names(List<ServiceName> services) {
        return services.stream().map(ServiceName::wire).collect(Collectors.joining(", "));
    }

    static String deadlinePassed(Duration timeout, List<ServiceName> unfinished) {
        return "deadline of " + Durations.format(timeout) + " passed; unfinished: " + names(unfinished);
    }
}
