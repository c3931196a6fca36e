package io.loomgate.upstream.http;

import java.time.Duration;
import java.util.Optional;

/**
 * A tunnel's two clocks: the time since a byte last passed either way (the idle timeout), and the
 * time since it opened (its lifetime). A parked virtual thread wakes when the nearer one would run
 * out, and ends the tunnel if it has.
 */
final class TunnelClock {

    private final long idleNanos;
    private final long endsAt;
    private volatile long lastMoved;

    TunnelClock(Duration idle, Optional<Duration> lifetime) {
        long now = System.nanoTime();
        this.idleNanos = idle.toNanos();
        this.endsAt = lifetime.map(l -> now + l.toNanos()).orElse(Long.MAX_VALUE);
        this.lastMoved = now;
    }

    /** A byte passed, one way or the other. */
    void moved() {
        lastMoved = System.nanoTime();
    }

    /** Nanoseconds until a clock runs out at {@code now}; zero or less once one has. */
    long left(long now) {
        long idleLeft = lastMoved + idleNanos - now;
        long lifeLeft = endsAt == Long.MAX_VALUE ? Long.MAX_VALUE : endsAt - now;
        return Math.min(idleLeft, lifeLeft);
    }

    /** Starts the watch: {@code end} runs once a clock has run out; interrupting the thread stops it. */
    Thread watch(Runnable end) {
        return Thread.ofVirtual().name("tunnel-clock").start(() -> {
            try {
                for (long left; (left = left(System.nanoTime())) > 0; ) {
                    Thread.sleep(Duration.ofNanos(left));
                }
                end.run();
            } catch (InterruptedException over) {
                // the tunnel ended first
            }
        });
    }
}
