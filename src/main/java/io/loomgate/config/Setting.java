package io.loomgate.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One flag's raw text and where it came from ({@code --port}, {@code LOOMGATE_PORT}, or the default),
 * with the conversions to typed values. Every conversion failure becomes a one-line
 * {@link UsageException} that names the origin, the bad value and what is accepted.
 */
record Setting(String value, String origin) {

    private static final int ECHO_LIMIT = 40;

    String text() throws UsageException {
        if (value.isBlank()) {
            throw bad("must not be empty");
        }
        return value;
    }

    /** A decimal number from {@code min} to {@code max}, such as {@code 0.1}. */
    double ratio(double min, double max) throws UsageException {
        String accepted = "must be a number from " + min + " to " + max + ", such as 0.1";
        try {
            double v = Double.parseDouble(value);
            if (!(v >= min && v <= max)) {
                throw bad(accepted);
            }
            return v;
        } catch (NumberFormatException e) {
            throw bad(accepted);
        }
    }

    int integer(int min, int max) throws UsageException {
        String accepted = "must be an integer in " + min + ".." + max;
        try {
            long v = Long.parseLong(value);
            if (v < min || v > max) {
                throw bad(accepted);
            }
            return (int) v;
        } catch (NumberFormatException e) {
            throw bad(accepted);
        }
    }

    long longValue() throws UsageException {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw bad("must be an integer");
        }
    }

    Duration duration(Duration min, Duration max) throws UsageException {
        return checkedDuration(value, min, max);
    }

    /** A duration of whole seconds, because the JDK server property behind it counts in seconds. */
    Duration wholeSeconds(Duration min, Duration max) throws UsageException {
        Duration d = duration(min, max);
        if (d.toMillis() % 1000 != 0) {
            throw bad("must be whole seconds (the JDK server counts this in seconds)");
        }
        return d;
    }

    /** True for the words {@link #bool()} accepts, so a switch can take one as its value. */
    static boolean isBoolean(String word) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1", "false", "no", "off", "0" -> true;
            default -> false;
        };
    }

    boolean bool() throws UsageException {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw bad("must be true or false");
        };
    }

    AccessLogMode accessLogMode() throws UsageException {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1", "text" -> AccessLogMode.TEXT;
            case "false", "no", "off", "0" -> AccessLogMode.OFF;
            case "json" -> AccessLogMode.JSON;
            default -> throw bad("must be off, text or json");
        };
    }

    ServerKind serverKind() throws UsageException {
        return switch (value) {
            case "loomgate" -> ServerKind.LOOMGATE;
            case "jdk" -> ServerKind.JDK;
            default -> throw bad("must be 'loomgate' or 'jdk'");
        };
    }

    ThreadMode threadMode() throws UsageException {
        return switch (value) {
            case "virtual" -> ThreadMode.VIRTUAL;
            case "platform" -> ThreadMode.PLATFORM;
            default -> throw bad("must be 'virtual' or 'platform'");
        };
    }

    /**
     * {@code db=100ms,cache=20ms}: latencies from 0 to 60 s per service. An entry named after a
     * percentile gives the service before it a slow tail: {@code api=10ms,p99=1s}. The names are
     * checked against the route table's upstreams at startup, when they are known.
     */
    Map<String, Latency> serviceLatencies() throws UsageException {
        Map<String, Duration> entries = perService("DURATION", Durations::parse, Duration.ZERO, Duration.ofSeconds(60));
        Map<String, Latency> result = new LinkedHashMap<>();
        String last = null;
        for (var e : entries.entrySet()) {
            if (!Latency.isTailName(e.getKey())) {
                last = e.getKey();
                result.put(last, Latency.fixed(e.getValue()));
            } else if (last == null || result.get(last).hasTail()) {
                throw bad("puts " + e.getKey() + " where it does not follow a NAME=DURATION to give a tail to,"
                        + " as in api=10ms," + e.getKey() + "=1s");
            } else {
                try {
                    result.put(last, Latency.withTail(result.get(last).typical(), e.getKey(), e.getValue()));
                } catch (IllegalArgumentException x) {
                    throw bad("must name a tail's percentile above 0 and below 100, such as p99 or p99.9");
                }
            }
        }
        return result;
    }

    /** {@code file-flaky=0.5}: probabilities from 0 to 1 per service. */
    Map<String, Double> serviceRates() throws UsageException {
        return perService("P", Setting::probability, 0.0, 1.0);
    }

    private <V extends Comparable<V>> Map<String, V> perService(
            String valueHint, Function<String, V> parse, V min, V max) throws UsageException {
        Map<String, V> result = new LinkedHashMap<>();
        if (value.isBlank()) {
            return result;
        }
        String shape = "must be NAME=" + valueHint + "[,NAME=" + valueHint + "...]";
        for (String entry : value.split(",", -1)) {
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw bad(shape);
            }
            String name = entry.substring(0, eq).trim();
            V parsed;
            try {
                parsed = parse.apply(entry.substring(eq + 1).trim());
            } catch (IllegalArgumentException e) {
                throw bad(shape + " with " + valueHint + " " + e.getMessage());
            }
            if (parsed.compareTo(min) < 0 || parsed.compareTo(max) > 0) {
                throw bad(shape + " with " + valueHint + " between " + show(min) + " and " + show(max));
            }
            result.put(name, parsed);
        }
        return result;
    }

    private Duration checkedDuration(String text, Duration min, Duration max) throws UsageException {
        Duration d;
        try {
            d = Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw bad("must be " + Durations.ACCEPTED);
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw bad("must be between " + Durations.format(min) + " and " + Durations.format(max));
        }
        return d;
    }

    private static double probability(String text) {
        try {
            double p = Double.parseDouble(text);
            if (Double.isNaN(p)) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a number between 0 and 1");
        }
    }

    private static String show(Object bound) {
        return bound instanceof Duration d ? Durations.format(d) : String.valueOf(bound);
    }

    /** {@code 10.0.0.0/8,127.0.0.1}: IP addresses and CIDR blocks; empty for none. */
    AddressRanges addressRanges() throws UsageException {
        try {
            return AddressRanges.parse(value);
        } catch (IllegalArgumentException e) {
            throw bad("must be IP addresses or CIDR blocks, comma-separated (" + e.getMessage() + ")");
        }
    }

    UsageException bad(String accepted) {
        return new UsageException(origin + " " + accepted + ", got '" + echo(value) + "'");
    }

    /** The value as it may appear in a message: short, printable. */
    static String echo(String raw) {
        return Printable.shorten(raw, ECHO_LIMIT);
    }
}
