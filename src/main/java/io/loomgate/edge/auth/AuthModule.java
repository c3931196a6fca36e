package io.loomgate.edge.auth;

import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.util.Optional;

/**
 * An authentication method as a module: its name in route files, how it may be written
 * ({@code "auth": "NAME"}, {@code "auth": {"NAME": {...}}}, or both), and how it reads and checks
 * its settings into an {@link AuthSpec}. Registered in {@code io.loomgate.Modules}; nothing else
 * knows a method by its name.
 */
public interface AuthModule {

    /** The method's name: {@code "auth": "apiKey"} or {@code "auth": {"jwt": {...}}}. */
    String name();

    /** True when it may be written as its bare name, with no settings. */
    boolean bare();

    /** True when it may be written as an object of settings. */
    boolean configurable();

    /**
     * Reads its settings: the object of {@code {"NAME": {...}}}, or empty for the bare name.
     *
     * @throws RouteFileException naming the field and the bad value
     */
    AuthSpec read(Optional<Fields> settings) throws RouteFileException;

    /** The rate-limit {@code by} value this method offers, keying by the caller it finds, if it offers one. */
    default Optional<LimitKey> limitKey() {
        return Optional.empty();
    }

    /**
     * @param by    the {@code by} value: {@code apiKey}, {@code jwt.sub}
     * @param needs what a route must say to use it, ending "needs the route to require ...":
     *              {@code one ("auth": "apiKey")}
     */
    record LimitKey(String by, String needs) {
    }
}
