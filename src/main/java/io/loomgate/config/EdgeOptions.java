package io.loomgate.config;

import java.util.Objects;

/**
 * How loomgate treats what clients say about themselves at the edge.
 *
 * @param trustedProxies peers whose {@code X-Forwarded-For} and {@code X-Forwarded-Proto} are kept
 *                       and extended by a proxy route; from any other peer they are replaced
 */
public record EdgeOptions(AddressRanges trustedProxies) {

    public static final EdgeOptions DEFAULTS = new EdgeOptions(AddressRanges.NONE);

    public EdgeOptions {
        Objects.requireNonNull(trustedProxies, "trustedProxies");
    }
}
