package io.loomgate.store.redis;

import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Stops asking a Redis that keeps failing. It opens when Redis looks gone: {@code failuresToOpen}
 * failed commands in a row with no success for a second, or, at any rate, most of the last second's
 * commands failed (at least {@link #WINDOW_FAILURES}). A burst of timeouts among successes (a busy
 * host, a pause of loomgate's own) does not open it: each of those requests fell back on its own.
 * Open, every command fails at once ({@link StoreException.Kind#OPEN}), so a dead Redis costs no
 * latency; after {@code coolDown} it lets one probe through, whose success closes it. Each change of
 * state is told to {@code onChange} once, for the log.
 */
final class StoreBreaker {

    /** The breaker's state; {@code up} in the metrics is 1 only when closed. */
    enum State {
        CLOSED, OPEN, HALF_OPEN;

        String wire() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** Told of each change of state, with the failure that caused it (empty on closing). */
    @FunctionalInterface
    interface Listener {
        void changed(State from, State to, String why);
    }

    /** The window: ten slots of 100 ms. */
    private static final int SLOTS = 10;
    private static final long SLOT_NANOS = 100_000_000L;
    /** Failures in the last second that open it when they are most of its commands. */
    static final int WINDOW_FAILURES = 20;

    private final int failuresToOpen;
    private final long coolDownNanos;
    private final LongSupplier clock;
    private final Listener onChange;
    private State state = State.CLOSED;
    private int inARow;
    private long lastSuccess;
    private final int[] failed = new int[SLOTS];
    private final int[] succeeded = new int[SLOTS];
    private long slotStart;
    private int slot;
    private long openedAt;
    private boolean probing;
    private long opened;

    StoreBreaker(int failuresToOpen, Duration coolDown, LongSupplier nanoClock, Listener onChange) {
        this.failuresToOpen = failuresToOpen;
        this.coolDownNanos = coolDown.toNanos();
        this.clock = nanoClock;
        this.onChange = onChange;
        this.lastSuccess = nanoClock.getAsLong();
        this.slotStart = lastSuccess;
    }

    /** Moves the window on to now, emptying the slots it passes. */
    private void advance(long now) {
        long passed = Math.min(SLOTS, (now - slotStart) / SLOT_NANOS);
        for (long i = 0; i < passed; i++) {
            slot = (slot + 1) % SLOTS;
            failed[slot] = 0;
            succeeded[slot] = 0;
        }
        slotStart += passed * SLOT_NANOS;
        if (passed == SLOTS) {
            slotStart = now;
        }
    }

    /**
     * Lets a command through, saying whether it is the half-open probe.
     *
     * @throws StoreException when open, or half-open with its probe in flight
     */
    synchronized boolean admit() throws StoreException {
        if (state == State.OPEN && clock.getAsLong() - openedAt >= coolDownNanos) {
            move(State.HALF_OPEN, "probing");
        }
        return switch (state) {
            case CLOSED -> false;
            case HALF_OPEN -> {
                if (probing) {
                    throw new StoreException(StoreException.Kind.OPEN, "Redis is failing; one probe is in flight");
                }
                probing = true;
                yield true;
            }
            case OPEN -> throw new StoreException(StoreException.Kind.OPEN, "Redis is failing; not asked until the next probe");
        };
    }

    synchronized void succeeded(boolean probe) {
        long now = clock.getAsLong();
        advance(now);
        succeeded[slot]++;
        lastSuccess = now;
        inARow = 0;
        if (probe) {
            probing = false;
        }
        if (state != State.CLOSED) {
            move(State.CLOSED, "");
        }
    }

    /** The command was cancelled by its request: neither a success nor a failure; a probe may be sent again. */
    synchronized void cancelled(boolean probe) {
        if (probe) {
            probing = false;
        }
    }

    synchronized void failed(boolean probe, String why) {
        if (probe) {
            probing = false;
            open(why);
            return;
        }
        if (state != State.CLOSED) {
            return;
        }
        long now = clock.getAsLong();
        advance(now);
        failed[slot]++;
        inARow++;
        int failures = java.util.Arrays.stream(failed).sum();
        int successes = java.util.Arrays.stream(succeeded).sum();
        if (inARow >= failuresToOpen && now - lastSuccess >= SLOTS * SLOT_NANOS) {
            open(inARow + " commands in a row failed and none succeeded for a second, the last: " + why);
        } else if (failures >= WINDOW_FAILURES && failures > successes) {
            open(failures + " of the last second's " + (failures + successes) + " commands failed, the last: " + why);
        }
    }

    private void open(String why) {
        openedAt = clock.getAsLong();
        opened++;
        inARow = 0;
        move(State.OPEN, why);
    }

    private void move(State to, String why) {
        State from = state;
        state = to;
        if (from != to) {
            onChange.changed(from, to, why);
        }
    }

    synchronized State state() {
        return state;
    }

    /** Times it opened since start. */
    synchronized long opened() {
        return opened;
    }
}
