package io.loomgate.upstream;

import io.loomgate.config.Durations;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * A circuit breaker for one upstream ({@link Breaking} is its layer in the stack). Closed, it counts how calls end; after too many failures
 * (in a row, or as a share of the recent window; a call stopped by its deadline counts, one
 * cancelled because a sibling decided the answer does not) it opens. Open, it fails every call at
 * once, with a reason that says so, without calling the upstream. After the cool-down it half-opens
 * and lets one probe through: a success closes it, a failure opens it again.
 */
public final class Breaker {

    /** The breaker's state. */
    public enum State {
        CLOSED, OPEN, HALF_OPEN;

        public String wire() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** What the metrics show: the state now, and how often it has entered each state. */
    public record Snapshot(State state, long opened, long halfOpened, long closed) {
    }

    private final UpstreamId id;
    private final BreakerSettings settings;
    private final LongSupplier nanoClock;
    private final ReentrantLock lock = new ReentrantLock();
    private final boolean[] recent;
    private State state = State.CLOSED;
    private int next;
    private int filled;
    private int failuresInWindow;
    private int inARow;
    private long openedAt;
    private boolean probing;
    private String why = "";
    private long opened;
    private long halfOpened;
    private long closed;

    Breaker(UpstreamId id, BreakerSettings settings, LongSupplier nanoClock) {
        this.id = id;
        this.settings = settings;
        this.nanoClock = nanoClock;
        this.recent = new boolean[settings.window()];
    }

    /** A call through the breaker. */
    interface Attempt<T> {
        T run() throws UpstreamFailure, InterruptedException;
    }

    /**
     * Runs {@code attempt} if the breaker lets it through (else fails it at once), and counts how it
     * ended: as {@code judge} says of what it returned, failed when it threw, and by
     * {@link Outcome#interrupted} when it was stopped: a timeout counts as a failure, a cancellation
     * not at all.
     */
    <T> T through(Attempt<T> attempt, java.util.function.Function<T, Outcome.Kind> judge)
            throws UpstreamFailure, InterruptedException {
        boolean probe = admit();
        Outcome.Kind ending = Outcome.Kind.FAILED;
        try {
            T result = attempt.run();
            ending = judge.apply(result);
            return result;
        } catch (InterruptedException e) {
            ending = Outcome.interrupted(RequestContext.current()).kind();
            throw e;
        } finally {
            settle(ending, probe);
        }
    }

    /** Lets a call through, saying whether it is the half-open probe, or fails it at once. */
    private boolean admit() throws UpstreamFailure {
        lock.lock();
        try {
            long now = nanoClock.getAsLong();
            if (state == State.OPEN && now - openedAt >= settings.coolDown().toNanos()) {
                state = State.HALF_OPEN;
                halfOpened++;
            }
            switch (state) {
                case CLOSED -> {
                    return false;
                }
                case HALF_OPEN -> {
                    if (!probing) {
                        probing = true;
                        return true;
                    }
                    throw UpstreamFailure.refused(id, "circuit half-open (" + why + "); one probe call is in flight");
                }
                default -> {
                    long leftNanos = openedAt + settings.coolDown().toNanos() - now;
                    throw UpstreamFailure.refused(id, "circuit open (" + why + "); not called; next try in "
                            + Durations.format(Duration.ofMillis((leftNanos + 999_999) / 1_000_000)));
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void settle(Outcome.Kind ending, boolean probe) {
        lock.lock();
        try {
            if (probe) {
                probing = false;
                if (ending == Outcome.Kind.SUCCESS) {
                    close();
                } else if (ending != Outcome.Kind.CANCELLED) {
                    open("the probe call failed");
                }
                return;
            }
            if (state != State.CLOSED || ending == Outcome.Kind.CANCELLED) {
                return;
            }
            boolean failed = ending != Outcome.Kind.SUCCESS;
            inARow = failed ? inARow + 1 : 0;
            if (filled == recent.length && recent[next]) {
                failuresInWindow--;
            }
            recent[next] = failed;
            failuresInWindow += failed ? 1 : 0;
            next = (next + 1) % recent.length;
            filled = Math.min(filled + 1, recent.length);
            if (inARow >= settings.consecutiveFailures()) {
                open(inARow + " failures in a row");
            } else if (filled == recent.length && failuresInWindow > settings.failureRate() * recent.length) {
                open(failuresInWindow + " of the last " + recent.length + " calls failed");
            }
        } finally {
            lock.unlock();
        }
    }

    private void open(String reason) {
        state = State.OPEN;
        openedAt = nanoClock.getAsLong();
        why = reason;
        opened++;
    }

    private void close() {
        state = State.CLOSED;
        inARow = 0;
        filled = 0;
        next = 0;
        failuresInWindow = 0;
        closed++;
    }

    public Snapshot snapshot() {
        lock.lock();
        try {
            return new Snapshot(state, opened, halfOpened, closed);
        } finally {
            lock.unlock();
        }
    }
}
