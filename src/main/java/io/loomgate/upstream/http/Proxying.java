package io.loomgate.upstream.http;

import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.util.List;
import java.util.Locale;

/**
 * How a proxy route's request presents itself to an http upstream: {@code "preserveHost": true}
 * sends the client's {@code Host} instead of the upstream's (nginx sends the upstream's by default,
 * as loomgate does), and {@code "forwarded"} says which headers tell the upstream where the request
 * came from: {@code x-forwarded} (the default: {@code X-Forwarded-For}, {@code -Proto},
 * {@code -Host}, {@code -Port}, {@code -Prefix}), {@code rfc7239} ({@code Forwarded}), {@code both},
 * or {@code off} (none, and the client's own taken out).
 */
record Proxying(boolean preserveHost, Mode forwarded) {

    enum Mode {
        OFF, X_FORWARDED, RFC7239, BOTH;

        boolean xForwarded() {
            return this == X_FORWARDED || this == BOTH;
        }

        boolean rfc7239() {
            return this == RFC7239 || this == BOTH;
        }

        String written() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    static final Proxying DEFAULT = new Proxying(false, Mode.X_FORWARDED);
    private static final List<String> MODES = List.of("off", "x-forwarded", "rfc7239", "both");

    static Proxying read(Fields f) throws RouteFileException {
        boolean preserve = f.optionalBoolean("preserveHost").orElse(false);
        String mode = f.optionalString("forwarded").orElse("x-forwarded");
        if (!MODES.contains(mode)) {
            throw f.bad("forwarded", "must be one of " + String.join(", ", MODES), mode);
        }
        return new Proxying(preserve, Mode.valueOf(mode.toUpperCase(Locale.ROOT).replace('-', '_')));
    }

    void print(JsonWriter w) {
        if (preserveHost) {
            w.field("preserveHost", true);
        }
        if (forwarded != Mode.X_FORWARDED) {
            w.field("forwarded", forwarded.written());
        }
    }
}
