package io.loomgate.core.fanout;

import io.loomgate.config.Durations;
import io.loomgate.config.Printable;
import io.loomgate.json.JsonWriter;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * When a hedge sends its backup copy, and how many it may send.
 *
 * <pre>{@code
 * HedgeSettings.fixed(Duration.ofMillis(20), 0.05)             // a backup after 20 ms
 * HedgeSettings.adaptive(95, Duration.ofMillis(5), 0.05)      // after the recent p95, at least 5 ms
 * HedgeSettings.fixed(Duration.ZERO, 1.0)                      // two copies of every request at once
 * }</pre>
 *
 * @param after      the fixed delay; for an adaptive hedge, its floor
 * @param percentile for an adaptive hedge: which percentile of the primary's recent latencies is the delay
 * @param budget     hedges as a share of recent primary requests, above 0 and at most 1
 * @param minPerSecond hedges allowed each second whatever the share allows (the budget's floor); 0 for none
 */
public record HedgeSettings(Duration after, OptionalDouble percentile, double budget, double minPerSecond)
        implements PolicySpec {

    /** Hedges may be 5% of recent primaries unless a route says otherwise. */
    public static final double DEFAULT_BUDGET = 0.05;

    /** Hedges allowed each second whatever the share allows, unless a route says otherwise. */
    public static final double DEFAULT_MIN_PER_SECOND = 2;

    /** An adaptive hedge waits at least this long unless a route says otherwise. */
    public static final Duration DEFAULT_FLOOR = Duration.ofMillis(5);

    public HedgeSettings {
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(percentile, "percentile");
        if (after.isNegative()) {
            throw new IllegalArgumentException("after must be >= 0: " + after);
        }
        if (percentile.isPresent() && !(percentile.getAsDouble() > 0 && percentile.getAsDouble() < 100)) {
            throw new IllegalArgumentException("percentile must be above 0 and below 100: " + percentile);
        }
        if (!(budget > 0 && budget <= 1)) {
            throw new IllegalArgumentException("budget must be above 0 and at most 1: " + budget);
        }
        if (!(minPerSecond >= 0)) {
            throw new IllegalArgumentException("minPerSecond must be >= 0: " + minPerSecond);
        }
    }

    /** A backup after a fixed delay. */
    public static HedgeSettings fixed(Duration after, double budget) {
        return new HedgeSettings(after, OptionalDouble.empty(), budget, DEFAULT_MIN_PER_SECOND);
    }

    /** A backup after the primary's recent {@code percentile}, never sooner than {@code floor}. */
    public static HedgeSettings adaptive(double percentile, Duration floor, double budget) {
        return new HedgeSettings(floor, OptionalDouble.of(percentile), budget, DEFAULT_MIN_PER_SECOND);
    }

    /** These settings with another floor. */
    public HedgeSettings withMinPerSecond(double perSecond) {
        return new HedgeSettings(after, percentile, budget, perSecond);
    }

    /** True when the delay follows the primary's recent latencies. */
    public boolean adaptive() {
        return percentile.isPresent();
    }

    @Override
    public String name() {
        return "hedge";
    }

    @Override
    public Policy build() {
        return new HedgePolicy(this);
    }

    @Override
    public void print(JsonWriter w) {
        w.name("hedge").beginObject().field("after", afterText());
        if (adaptive()) {
            w.field("floor", Durations.format(after));
        }
        w.name("budget").preciseValue(budget);
        w.name("minPerSecond").preciseValue(minPerSecond);
        w.endObject();
    }

    /** As a route file writes {@code after}: {@code 20ms}, or {@code p95} for an adaptive hedge. */
    public String afterText() {
        return adaptive() ? "p" + Printable.number(percentile.getAsDouble()) : Durations.format(after);
    }
}
