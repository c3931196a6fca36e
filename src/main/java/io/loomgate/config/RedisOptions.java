package io.loomgate.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The Redis that shared rate limits keep their counters on ({@code --redis}): where it is, whether
 * it speaks TLS ({@code rediss://}), the ACL user and password, the database, the deadline of each
 * command ({@code --redis-timeout}) and whom TLS trusts ({@code --redis-ca}). The password is never
 * shown: {@link #toString()} and {@link #display()} leave it out.
 *
 * @param user     the ACL user, empty for Redis's default user
 * @param password the password, from the URL or {@value #PASSWORD_ENV}; empty for none
 * @param database the database number ({@code /db}), 0 by default
 */
public record RedisOptions(boolean tls, String host, int port, Optional<String> user, Optional<String> password, int database,
                           Duration timeout, Optional<Path> caFile) {

    /** The environment variable that may hold the password, so that it stays out of {@code ps}. */
    public static final String PASSWORD_ENV = "LOOMGATE_REDIS_PASSWORD";

    public RedisOptions {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(caFile, "caFile");
    }

    /**
     * Reads {@code redis://[user:password@]host[:port][/db]} or {@code rediss://...}; the password from
     * {@code envPassword} when the URL has none.
     *
     * @return a reason it is not such a URL, or the options
     */
    static RedisOptions parse(String url, Optional<String> envPassword, Duration timeout, Optional<Path> caFile)
            throws IllegalArgumentException {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("must be redis://[user:password@]host:port/db or rediss://... (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme();
        if (!scheme.equals("redis") && !scheme.equals("rediss")) {
            throw new IllegalArgumentException("must start with redis:// or rediss:// (TLS)");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("must name a host: redis://127.0.0.1:6379");
        }
        if (uri.getQuery() != null || uri.getFragment() != null) {
            throw new IllegalArgumentException("must have no query or fragment");
        }
        int database = 0;
        String path = uri.getPath() == null ? "" : uri.getPath();
        if (!path.isEmpty() && !path.equals("/")) {
            try {
                database = Integer.parseInt(path.substring(1));
            } catch (NumberFormatException e) {
                database = -1;
            }
            if (database < 0 || database > 1_000_000) {
                throw new IllegalArgumentException("must end with a database number (/0), or nothing");
            }
        }
        Optional<String> user = Optional.empty();
        Optional<String> password = Optional.empty();
        if (uri.getRawUserInfo() != null) {
            String info = uri.getRawUserInfo();
            int colon = info.indexOf(':');
            String u = URLDecoder.decode(colon < 0 ? info : info.substring(0, colon), StandardCharsets.UTF_8);
            user = u.isEmpty() ? Optional.empty() : Optional.of(u);
            if (colon >= 0) {
                password = Optional.of(URLDecoder.decode(info.substring(colon + 1), StandardCharsets.UTF_8));
            }
        }
        if (password.isEmpty()) {
            password = envPassword.filter(p -> !p.isEmpty());
        }
        int port = uri.getPort() < 0 ? 6379 : uri.getPort();
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1) : uri.getHost();
        return new RedisOptions(scheme.equals("rediss"), host, port, user, password, database, timeout, caFile);
    }

    /** The URL without the password: {@code rediss://limits@10.0.0.5:6380/2}. */
    public String display() {
        return (tls ? "rediss://" : "redis://") + user.map(u -> u + "@").orElse("")
                + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + "/" + database;
    }

    @Override
    public String toString() {
        return display() + (password.isPresent() ? " (with a password)" : "");
    }
}
