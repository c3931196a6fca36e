package io.loomgate.core.fanout;

import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * An engine that runs the parts of a fan-out concurrently and reports how each ended. The route
 * chooses the engine; the {@link Policy} chooses how its parts are merged. Runs inside a
 * {@link RequestContext}, whose deadline it keeps.
 */
public interface FanOut {

    /**
     * One part to run: its upstream (for its thread's name and the answer) and its work. A hedge's
     * backup is a delayed part: it starts {@code after} a delay, or as soon as a sibling fails if
     * that comes first, and only if {@code admit} says yes then. Every other part starts at once.
     *
     * @param after wait this long before starting; zero to start at once
     * @param admit asked when the wait is over: false means the part is never started
     */
    record Part(UpstreamId upstream, Callable<Value> task, Duration after, BooleanSupplier admit) {

        private static final BooleanSupplier ALWAYS = () -> true;

        /** A part that starts at once. */
        public Part(UpstreamId upstream, Callable<Value> task) {
            this(upstream, task, Duration.ZERO, ALWAYS);
        }

        /** True when the part starts as soon as it is forked, unconditionally. */
        public boolean immediate() {
            return after.isZero() && admit == ALWAYS;
        }
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
        return new DrivenFanOut(mode, virtualStarted);
    }
}
