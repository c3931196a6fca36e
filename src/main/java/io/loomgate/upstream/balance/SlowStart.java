package io.loomgate.upstream.balance;

import java.time.Duration;
import java.util.Objects;

/**
 * An upstream's {@code "slowStart": "30s"} (Envoy's {@code slow_start_config}): an endpoint that
 * joins the fleet after it started (a name resolved to a new address), or comes back (its ejection
 * over, its health checks passing again), takes a share of calls that grows linearly over the
 * window, from a tenth of its share to all of it, so a cold JVM behind it is not handed its full
 * share at once. Round robin skips it with the probability its weight leaves out; least request
 * counts its calls as {@code (outstanding + 1) / weight}.
 *
 * @param window how long an endpoint takes to its full share; zero: no slow start
 */
public record SlowStart(Duration window) {

    public static final SlowStart NONE = new SlowStart(Duration.ZERO);
    /** The share a warming endpoint starts from, as Envoy's {@code min_weight_percent} default (10%). */
    static final double MIN_WEIGHT = 0.1;

    public SlowStart {
        Objects.requireNonNull(window, "window");
    }

    /** Its calls as least request weighs them: {@code (outstanding + 1) / weight}. */
    double load(int outstanding, long sinceNanos, long nowNanos) {
        return (outstanding + 1) / weight(sinceNanos, nowNanos);
    }

    /** Whether round robin gives it this turn: always at full weight, else with the probability of its weight. */
    boolean admits(long sinceNanos, long nowNanos) {
        double w = weight(sinceNanos, nowNanos);
        return w >= 1 || java.util.concurrent.ThreadLocalRandom.current().nextDouble() < w;
    }

    /** The weight of an endpoint warming since {@code sinceNanos} (0: not warming) at {@code nowNanos}: 0.1 to 1. */
    double weight(long sinceNanos, long nowNanos) {
        if (window.isZero() || sinceNanos == 0) {
            return 1;
        }
        double f = (double) (nowNanos - sinceNanos) / window.toNanos();
        return f >= 1 ? 1 : Math.max(MIN_WEIGHT, f);
    }
}
