package io.loomgate.config;

import java.nio.file.Files;
import java.time.Duration;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the edge flags: {@code --trusted-proxies}, {@code --tls-cert} with {@code --tls-key} or
 * {@code --tls-keystore} (its password only from {@value #KEYSTORE_PASSWORD}, never a flag, so it
 * does not show in {@code ps}), and {@code --api-keys}. Files are checked to be readable here; what
 * is in them is checked when the server starts.
 */
final class EdgeFlags {

    /** The environment variable that holds the PKCS#12 keystore's password. */
    static final String KEYSTORE_PASSWORD = "LOOMGATE_TLS_KEYSTORE_PASSWORD";

    private EdgeFlags() {
    }

    static EdgeOptions read(Map<Flag, Setting> s, Map<String, String> env) throws UsageException {
        Setting cert = s.get(Flag.TLS_CERT);
        Setting key = s.get(Flag.TLS_KEY);
        Setting keystore = s.get(Flag.TLS_KEYSTORE);
        Optional<TlsSource> tls = Optional.empty();
        if (!keystore.value().isEmpty()) {
            if (!cert.value().isEmpty() || !key.value().isEmpty()) {
                throw keystore.bad("is instead of --tls-cert and --tls-key, not with them");
            }
            Path file = readable(keystore, "a readable PKCS#12 file");
            String password = env.get(KEYSTORE_PASSWORD);
            if (password == null) {
                throw keystore.bad("needs its password in " + KEYSTORE_PASSWORD + ", which is not set (set it, to an empty"
                        + " value for a keystore without a password)");
            }
            tls = Optional.of(new TlsSource.Keystore(file, password));
        } else if (!cert.value().isEmpty() || !key.value().isEmpty()) {
            if (cert.value().isEmpty()) {
                throw key.bad("needs --tls-cert beside it (the PEM certificate chain)");
            }
            if (key.value().isEmpty()) {
                throw cert.bad("needs --tls-key beside it (the PEM PKCS#8 private key)");
            }
            tls = Optional.of(new TlsSource.Pem(readable(cert, "a readable PEM file"), readable(key, "a readable PEM file")));
        }
        Setting apiKeys = s.get(Flag.API_KEYS);
        Optional<Path> keys = apiKeys.value().isEmpty() ? Optional.empty()
                : Optional.of(readable(apiKeys, "a readable file of NAME SHA256-HEX lines"));
        return new EdgeOptions(s.get(Flag.TRUSTED_PROXIES).addressRanges(), tls, keys, redis(s, env));
    }

    /** {@code --redis}, with {@code --redis-timeout} and {@code --redis-ca}; the password maybe from the environment. */
    private static Optional<RedisOptions> redis(Map<Flag, Setting> s, Map<String, String> env) throws UsageException {
        Setting url = s.get(Flag.REDIS);
        Setting ca = s.get(Flag.REDIS_CA);
        Duration timeout = s.get(Flag.REDIS_TIMEOUT).duration(Duration.ofMillis(1), Duration.ofSeconds(10));
        if (url.value().isEmpty()) {
            if (!ca.value().isEmpty()) {
                throw ca.bad("needs --redis rediss://... beside it");
            }
            return Optional.empty();
        }
        Optional<Path> caFile = ca.value().isEmpty() ? Optional.empty() : Optional.of(readable(ca, "a readable PEM file"));
        try {
            RedisOptions o = RedisOptions.parse(url.value(), Optional.ofNullable(env.get(RedisOptions.PASSWORD_ENV)), timeout, caFile);
            if (caFile.isPresent() && !o.tls()) {
                throw ca.bad("is for rediss:// (TLS); --redis is redis://");
            }
            return Optional.of(o);
        } catch (IllegalArgumentException e) {
            throw new UsageException(url.origin() + " " + e.getMessage());
        }
    }

    private static Path readable(Setting setting, String what) throws UsageException {
        Path path = Path.of(setting.value());
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw setting.bad("must be " + what);
        }
        return path;
    }
}
