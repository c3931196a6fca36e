package io.loomgate.aggregate;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Caps hedges at a share of recent primary requests. Each primary adds {@code share} of a token,
 * each hedge spends a whole one, and no more is saved than {@link #REMEMBERED} primaries would add:
 * a quiet hour does not buy a burst of hedges later. With a share of 1, every request may have its
 * backup.
 */
final class HedgeBudget {

    /** How many recent primaries the saved credit can stand for. */
    static final int REMEMBERED = 1000;

    private static final long TOKEN = 1_000_000;

    private final long deposit;
    private final long cap;
    private final AtomicLong credit = new AtomicLong();

    /** @param share hedges per primary, above 0 and at most 1 */
    HedgeBudget(double share) {
        this.deposit = Math.round(share * TOKEN);
        this.cap = Math.max(TOKEN, deposit * REMEMBERED);
    }

    /** A primary was sent: a little more credit. */
    void primarySent() {
        credit.getAndUpdate(c -> Math.min(cap, c + deposit));
    }

    /** Spends one hedge's worth of credit, if there is that much. */
    boolean trySpend() {
        long c;
        do {
            c = credit.get();
            if (c < TOKEN) {
                return false;
            }
        } while (!credit.compareAndSet(c, c - TOKEN));
        return true;
    }
}
