package io.loomgate.aggregate;

import io.loomgate.service.ServiceName;
import io.loomgate.service.ServiceValue;
import java.time.Duration;

/**
 * What the fan-out saw of one part, before a policy gives it meaning: it returned, it threw, it had
 * not finished when the fan-out stopped waiting, or it never started.
 *
 * @param service  the part's service
 * @param result   how it ended
 * @param duration from its start until it ended (or, if it still runs, until now)
 */
public record Completion(ServiceName service, Result result, Duration duration) {

    /** How a part ended, seen from outside. */
    public sealed interface Result {
    }

    public record Returned(ServiceValue value) implements Result {
    }

    public record Threw(Throwable error) implements Result {
    }

    /** It had started and not finished when the fan-out stopped waiting. */
    public record Unfinished() implements Result {
    }

    /** It never started: the fan-out stopped waiting first, and it will not run. */
    public record NeverStarted() implements Result {
    }
}
