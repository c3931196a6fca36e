package io.loomgate.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What loomgate does at the edge: how it treats what clients say about themselves, whether it
 * serves HTTPS, and who may call the routes that ask for a key.
 *
 * @param trustedProxies peers whose {@code X-Forwarded-For} and {@code X-Forwarded-Proto} are kept
 *                       and extended by a proxy route; from any other peer they are replaced
 * @param tls            the listener's certificate and key, when it serves HTTPS
 * @param apiKeys        the file of API key hashes ({@code --api-keys}), for routes that require a key
 * @param redis          the Redis that shared rate limits use ({@code --redis}); empty for none
 */
public record EdgeOptions(AddressRanges trustedProxies, Optional<TlsSource> tls, Optional<Path> apiKeys, Optional<RedisOptions> redis) {

    public static final EdgeOptions DEFAULTS = new EdgeOptions(AddressRanges.NONE, Optional.empty(), Optional.empty(), Optional.empty());

    public EdgeOptions(AddressRanges trustedProxies, Optional<TlsSource> tls, Optional<Path> apiKeys) {
        this(trustedProxies, tls, apiKeys, Optional.empty());
    }

    public EdgeOptions {
        Objects.requireNonNull(trustedProxies, "trustedProxies");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(apiKeys, "apiKeys");
        Objects.requireNonNull(redis, "redis");
    }
}
