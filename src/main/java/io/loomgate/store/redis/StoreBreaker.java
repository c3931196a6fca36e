package io.loomgate.store.redis;

import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Stops asking a Redis that keeps failing: after {@code failuresToOpen} failed commands in a row it
 * opens, and every command fails at once ({@link StoreException.Kind#OPEN}) so a dead Redis costs
 * no latency; after {@code coolDown} it lets one probe through, whose success closes it. Each change
 * of state is told to {@code onChange} once, for the log.
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

    private final int failuresToOpen;
    private final long coolDownNanos;
    private final LongSupplier clock;
    private final Listener onChange;
    private State state = State.CLOSED;
    private int inARow;
    private long openedAt;
    private boolean probing;
    private long opened;

    StoreBreaker(int failuresToOpen, Duration coolDown, LongSupplier nanoClock, Listener onChange) {
        this.failuresToOpen = failuresToOpen;
        this.coolDownNanos = coolDown.toNanos();
        this.clock = nanoClock;
        this.onChange = onChange;
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
        inARow = 0;
        if (probe) {
            probing = false;
        }
        if (state != State.CLOSED) {
            move(State.CLOSED, "");
        }
    }

    synchronized void failed(boolean probe, String why) {
        if (probe) {
            probing = false;
            open(why);
            return;
        }
        if (state == State.CLOSED && ++inARow >= failuresToOpen) {
            open(inARow + " commands in a row failed, the last: " + why);
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
