package io.loomgate.grpc;

import java.time.Duration;
import java.util.Optional;

/**
 * The {@code grpc-timeout} request field (grpc/grpc doc/PROTOCOL-HTTP2.md): 1 to 8 ASCII digits and
 * a unit, {@code H}ours, {@code M}inutes, {@code S}econds, {@code m}illiseconds, {@code u}
 * (microseconds) or {@code n}anoseconds. Anything else is not a timeout (the request then has the
 * route's deadline alone). Written back upstream as what is left, in the finest unit whose count
 * fits in 8 digits.
 */
public final class GrpcTimeout {

    private GrpcTimeout() {
    }

    public static Optional<Duration> parse(String value) {
        if (value == null || value.length() < 2 || value.length() > 9) {
            return Optional.empty();
        }
        long n = 0;
        for (int i = 0; i < value.length() - 1; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return Optional.empty();
            }
            n = n * 10 + (c - '0');
        }
        return switch (value.charAt(value.length() - 1)) {
            case 'H' -> Optional.of(Duration.ofHours(n));
            case 'M' -> Optional.of(Duration.ofMinutes(n));
            case 'S' -> Optional.of(Duration.ofSeconds(n));
            case 'm' -> Optional.of(Duration.ofMillis(n));
            case 'u' -> Optional.of(Duration.ofNanos(n * 1_000));
            case 'n' -> Optional.of(Duration.ofNanos(n));
            default -> Optional.empty();
        };
    }

    /** {@code left} as a {@code grpc-timeout} value: the finest unit whose count fits in 8 digits (rounded up). */
    public static String format(Duration left) {
        long nanos = Math.max(0, left.toNanos());
        long[] perUnit = {1, 1_000, 1_000_000, 1_000_000_000L, 60_000_000_000L, 3_600_000_000_000L};
        char[] units = {'n', 'u', 'm', 'S', 'M', 'H'};
        for (int i = 0; i < units.length; i++) {
            long count = (nanos + perUnit[i] - 1) / perUnit[i];
            if (count <= 99_999_999L) {
                return count + String.valueOf(units[i]);
            }
        }
        return "99999999H";
    }
}
