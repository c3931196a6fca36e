package io.loomgate.config;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How long an upstream's calls take: a typical latency, and optionally a slow tail from a
 * percentile up. {@code 10ms,p99=1s} means most calls take 10 ms and the slowest 1 in 100 take 1 s
 * (stragglers, the shape "The Tail at Scale" is about). A plain {@code 300ms} has no tail.
 *
 * @param typical    what calls below the percentile take
 * @param percentile where the tail begins, above 0 and below 100; 100 for no tail
 * @param tail       what calls from the percentile up take
 */
public record Latency(Duration typical, double percentile, Duration tail) {

    /** No latency at all. */
    public static final Latency NONE = fixed(Duration.ZERO);

    private static final Pattern PERCENTILE = Pattern.compile("p(\\d{1,2}(\\.\\d{1,3})?)");

    /** What {@link #parse} accepts, for error messages. */
    public static final String ACCEPTED = "a duration such as 300ms, optionally with a tail such as 10ms,p99=1s";

    public Latency {
        Objects.requireNonNull(typical, "typical");
        Objects.requireNonNull(tail, "tail");
        if (typical.isNegative() || tail.isNegative()) {
            throw new IllegalArgumentException("latency must be >= 0: " + typical + ", " + tail);
        }
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile must be above 0 and at most 100: " + percentile);
        }
    }

    /** Every call takes {@code d}. */
    public static Latency fixed(Duration d) {
        return new Latency(d, 100, d);
    }

    /** True when {@code name} names a tail ({@code p99}, {@code p99.9}) rather than an upstream. */
    public static boolean isTailName(String name) {
        return PERCENTILE.matcher(name).matches();
    }

    /** {@code typical}, except that calls from {@code percentileName} ({@code p99}) up take {@code tail}. */
    public static Latency withTail(Duration typical, String percentileName, Duration tail) {
        var m = PERCENTILE.matcher(percentileName);
        if (!m.matches()) {
            throw new IllegalArgumentException("a latency whose tail is named pNN, such as 10ms,p99=1s or 10ms,p99.9=1s");
        }
        double p = Double.parseDouble(m.group(1));
        if (p <= 0 || p >= 100) {
            throw new IllegalArgumentException("a latency whose tail's percentile is above 0 and below 100, such as 10ms,p99=1s");
        }
        return new Latency(typical, p, tail);
    }

    /**
     * Parses {@code 300ms} or {@code 10ms,p99=1s}, each duration from 0 to {@code max}.
     *
     * @throws IllegalArgumentException whose message says what is accepted
     */
    public static Latency parse(String text, Duration max) {
        String[] parts = text.split(",", -1);
        if (parts.length > 2) {
            throw new IllegalArgumentException(ACCEPTED);
        }
        Duration typical = Durations.parseWithin(parts[0].trim(), Duration.ZERO, max);
        if (parts.length == 1) {
            return fixed(typical);
        }
        int eq = parts[1].indexOf('=');
        if (eq < 0) {
            throw new IllegalArgumentException(ACCEPTED);
        }
        Duration tail = Durations.parseWithin(parts[1].substring(eq + 1).trim(), Duration.ZERO, max);
        return withTail(typical, parts[1].substring(0, eq).trim(), tail);
    }

    /** True when some calls take longer than {@link #typical}. */
    public boolean hasTail() {
        return percentile < 100;
    }

    /** The share of calls in the tail: 0.01 for {@code p99}. */
    public double tailShare() {
        return (100 - percentile) / 100;
    }

    /** One call's latency, given a uniform random number in [0, 1). */
    public Duration draw(double uniform) {
        return hasTail() && uniform < tailShare() ? tail : typical;
    }

    /** As {@link #parse} reads it: {@code 300ms} or {@code 10ms,p99=1s}. */
    public String format() {
        if (!hasTail()) {
            return Durations.format(typical);
        }
        return Durations.format(typical) + ",p" + Printable.number(percentile) + "=" + Durations.format(tail);
    }
}
