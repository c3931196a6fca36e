package io.loomgate.core.fanout;

import io.loomgate.config.Durations;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/** Words for what went wrong, safe to show a client: no class names, no stack traces. */
public final class Failures {

    private static final System.Logger LOG = System.getLogger("loomgate");

    private Failures() {
    }

    /**
     * The outcome of a part that threw: the upstream's own message, or, for an unexpected exception
     * (a bug), a neutral one, with the exception logged under the request id.
     */
    public static Outcome.Failed failed(UpstreamId service, Throwable error) {
        if (error instanceof UpstreamFailure f) {
            return new Outcome.Failed(f.getMessage(), f.status());
        }
        LOG.log(Level.WARNING, "request " + RequestContext.current().requestId() + ": " + service
                + " failed with an unexpected exception", error);
        return new Outcome.Failed(service + ": unexpected error (logged with the request id)");
    }

    static String names(List<UpstreamId> services) {
        return services.stream().map(UpstreamId::value).collect(Collectors.joining(", "));
    }

    static String deadlinePassed(Duration timeout, List<UpstreamId> unfinished) {
        return "deadline of " + Durations.format(timeout) + " passed; unfinished: " + names(unfinished);
    }
}
