package io.loomgate.core.fanout;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The outcomes of a fan-out's parts as they complete, and whether the {@link StopWhen} rule is met:
 * the bookkeeping behind {@link StructuredFanOut}'s joiner, with nothing of the preview API in it.
 * A part that completes after the scope stopped is never reported here, and stays unrecorded.
 */
final class PartOutcomes {

    /** A delayed part that was not admitted when its wait was over: not a failure of its upstream. */
    static final class NotAdmitted extends Exception {
        NotAdmitted() {
            super("not admitted", null, false, false);
        }
    }

    private final List<FanOut.Part> parts;
    private final StopWhen stopWhen;
    private final AtomicReferenceArray<Outcome> results;
    private final AtomicInteger successes = new AtomicInteger();
    private final AtomicInteger failures = new AtomicInteger();
    private final CountDownLatch firstFailure;   // only when a part waits for it: most fan-outs have none
    private volatile boolean ruleMet;

    PartOutcomes(List<FanOut.Part> parts, StopWhen stopWhen) {
        this.parts = parts;
        this.stopWhen = stopWhen;
        this.results = new AtomicReferenceArray<>(parts.size());
        boolean delayed = false;
        for (FanOut.Part p : parts) {
            delayed |= !p.immediate();
        }
        this.firstFailure = delayed ? new CountDownLatch(1) : null;
    }

    /** Part {@code index} answered {@code value}; true when that decides the answer. */
    boolean succeeded(int index, Value value) {
        results.set(index, new Outcome.Success(value));
        return decided(successes.incrementAndGet(), failures.get());
    }

    /** Part {@code index} failed with {@code error}; true when that decides the answer. */
    boolean failed(int index, Throwable error) {
        UpstreamId service = parts.get(index).service();
        results.set(index, error instanceof NotAdmitted ? new Outcome.Failed(service + ": not sent")
                : Failures.failed(service, error));
        if (firstFailure != null) {
            firstFailure.countDown();
        }
        return decided(successes.get(), failures.incrementAndGet());
    }

    private boolean decided(int ok, int bad) {
        if (stopWhen.decided(ok, bad, parts.size())) {
            ruleMet = true;
            return true;
        }
        return false;
    }

    /**
     * A delayed part's wait: until {@code atNanos}, or until a part fails. The scope's
     * cancellation interrupts it, and the part never starts.
     */
    void awaitStartOrFailure(long atNanos) throws InterruptedException {
        firstFailure.await(atNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    /** The part's outcome, or null if it had not finished when the scope stopped. */
    Outcome recorded(int index) {
        return results.get(index);
    }

    /** True when the parts decided the answer (a failure under "all", a success under "any", k under "quorum"). */
    boolean ruleMet() {
        return ruleMet;
    }
}
