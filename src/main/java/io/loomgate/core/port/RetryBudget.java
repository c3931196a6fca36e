package io.loomgate.core.port;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * How many extra copies of requests (hedges, retries) may go out: a share of recent first tries,
 * plus a small floor per second whatever the traffic, in the manner of Finagle's
 * {@code RetryBudget}. Each first try adds {@code share} of a token and each extra copy spends a
 * whole one, with no more saved than the first tries of the last {@link #REMEMBERED_SECONDS}
 * seconds would add (Finagle's ten-second window), so a quiet hour does not buy a burst later, and
 * a busy upstream whose replica dies with hundreds of calls in flight can retry them all. When that credit is spent, the floor still lets
 * {@code minPerSecond} through (a bucket of one second's worth, full at start): a quiet service,
 * or a user's first try, is hedged too, and a failing one is never hit harder than share plus floor.
 *
 * <pre>{@code
 * RetryBudget budget = new RetryBudget(0.05, 2, System::nanoTime);   // 5% of first tries, at least 2 a second
 * budget.firstTrySent();
 * if (budget.trySpend()) { ... send the copy ... }
 * }</pre>
 */
public final class RetryBudget {

    /** How many seconds of first tries the saved credit can stand for. */
    public static final int REMEMBERED_SECONDS = 10;

    private static final long TOKEN = 1_000_000;
    private static final long SECOND = 1_000_000_000L;

    private final long deposit;
    private final AtomicLong credit = new AtomicLong();
    /** First tries in each of the last seconds, slot {@code second % REMEMBERED_SECONDS}, and which second each slot counts. */
    private final AtomicLongArray tries = new AtomicLongArray(REMEMBERED_SECONDS);
    private final AtomicLongArray triesSecond = new AtomicLongArray(REMEMBERED_SECONDS);
    private final double minPerSecond;
    private final double floorCapacity;
    private final LongSupplier clock;
    private final ReentrantLock lock = new ReentrantLock();
    private double floor;
    private long refilledAt;

    /**
     * @param share        extra copies per first try, from 0 to 1
     * @param minPerSecond extra copies allowed each second whatever the share allows; 0 for none
     */
    public RetryBudget(double share, double minPerSecond, LongSupplier nanoClock) {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("share must be from 0 to 1: " + share);
        }
        if (!(minPerSecond >= 0)) {
            throw new IllegalArgumentException("minPerSecond must be >= 0: " + minPerSecond);
        }
        this.deposit = Math.round(share * TOKEN);
        this.minPerSecond = minPerSecond;
        this.floorCapacity = Math.max(1, minPerSecond);
        this.clock = nanoClock;
        this.floor = minPerSecond > 0 ? floorCapacity : 0;
        this.refilledAt = nanoClock.getAsLong();
    }

    /** A first try was sent: a little more credit. */
    public void firstTrySent() {
        long second = Math.floorDiv(clock.getAsLong(), SECOND);
        int slot = (int) Math.floorMod(second, (long) REMEMBERED_SECONDS);
        long counted = triesSecond.get(slot);
        if (counted != second && triesSecond.compareAndSet(slot, counted, second)) {
            tries.set(slot, 0);   // the slot's second is over: it counts this one now (a try racing the reset may be lost)
        }
        tries.incrementAndGet(slot);
        long cap = cap(second);
        credit.getAndUpdate(c -> Math.min(cap, c + deposit));
    }

    /** The most credit saved now: what the first tries of the last {@link #REMEMBERED_SECONDS} seconds added; one token at least. */
    private long cap(long second) {
        long recent = 0;
        for (int i = 0; i < REMEMBERED_SECONDS; i++) {
            if (second - triesSecond.get(i) < REMEMBERED_SECONDS) {
                recent += tries.get(i);
            }
        }
        return Math.max(TOKEN, deposit * recent);
    }

    /**
     * Spends one extra copy's worth: from the share's credit if there is that much (and no more
     * than the last seconds' first tries stand for), else from the floor.
     */
    public boolean trySpend() {
        long cap = cap(Math.floorDiv(clock.getAsLong(), SECOND));
        for (long c; (c = credit.get()) >= TOKEN; ) {
            long usable = Math.min(c, cap);
            if (usable < TOKEN) {
                credit.compareAndSet(c, usable);   // the credit outlived the first tries that saved it: gone
                break;
            }
            if (credit.compareAndSet(c, usable - TOKEN)) {
                return true;
            }
        }
        return minPerSecond > 0 && fromFloor();
    }

    private boolean fromFloor() {
        lock.lock();
        try {
            long now = clock.getAsLong();
            floor = Math.min(floorCapacity, floor + (now - refilledAt) * minPerSecond / SECOND);
            refilledAt = now;
            if (floor < 1) {
                return false;
            }
            floor -= 1;
            return true;
        } finally {
            lock.unlock();
        }
    }
}
