package io.loomgate.aggregate;

import io.loomgate.call.RequestContext;
import io.loomgate.call.ServiceId;
import io.loomgate.call.Value;
import io.loomgate.config.ThreadMode;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.LongAdder;

/**
 * An engine that runs the parts of a fan-out concurrently and reports how each ended. The route
 * chooses the engine; the {@link Policy} chooses how its parts are merged. Runs inside a
 * {@link RequestContext}, whose deadline it keeps.
 */
public interface FanOut {

    /** One part to run: its upstream (for its thread's name and the answer) and its work. */
    record Part(ServiceId service, Callable<Value> task) {
    }

    /**
     * Runs {@code parts} and returns what each did, in order, stopping early as {@code stopWhen} says.
     *
     * @throws InterruptedException when the calling thread is interrupted (shutdown cut it off)
     */
    FanOutResult run(List<Part> parts, StopWhen stopWhen) throws InterruptedException;

    /** The engine's name in route files: {@code structured}, {@code completable-future}. */
    String name();

    /** What the answer names as the executor, if the engine reports one ({@code common-pool}). */
    default Optional<String> executor() {
        return Optional.empty();
    }

    /**
     * The structured engine: a {@code StructuredTaskScope} per request. In platform mode its
     * subtasks run on new platform threads, so the comparison with virtual mode stays honest.
     *
     * @param virtualStarted counts the virtual threads it starts
     */
    static FanOut structured(ThreadMode mode, LongAdder virtualStarted) {
        return new StructuredFanOut(mode, virtualStarted);
    }
}
