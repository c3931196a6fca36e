package io.loomgate.edge.auth;

import java.util.Optional;

/** An authentication method as one route declares it, checked: what it lets through, and the {@link Auth} it builds. */
public interface AuthSpec {

    /** False for {@code "auth": "none"}: it checks nobody. */
    boolean checksCaller();

    /** True when it verifies claims a composed route's templates may use ({@code {jwt.NAME}}). */
    default boolean claims() {
        return false;
    }

    /** The rate-limit {@code by} value that keys by the caller it finds ({@code apiKey}, {@code jwt.sub}), if any. */
    default Optional<String> limitKey() {
        return Optional.empty();
    }

    /**
     * The route's authentication.
     *
     * @throws EdgeException when it cannot be built from what loomgate was given (API keys without
     *                       {@code --api-keys}); the message ends a sentence about the route
     */
    Auth build(Optional<ApiKeys> keys) throws EdgeException;
}
