package io.loomgate.edge.auth;

import io.loomgate.http.Caller;
import io.loomgate.http.Headers;
import io.loomgate.module.Fields;
import java.util.Optional;

/**
 * Who may call a route, as one authentication method checks it: anyone ({@link None}), the holder
 * of an API key ({@link ApiKeyAuth}), the bearer of a valid JWT ({@link JwtAuth}). A caller who is
 * not let through is refused with 401 (and {@code WWW-Authenticate}), or 403 for a valid token that
 * lacks a required claim; the request never reaches admission, let alone an upstream. Each method
 * is a module ({@link AuthModule}) registered in {@code io.loomgate.Modules}.
 */
public interface Auth {

    /**
     * Who is calling, as far as the route cares.
     *
     * @throws io.loomgate.http.HttpError 401 or 403 to refuse the caller
     */
    Caller authenticate(Headers headers);

    /**
     * True when the request carried a credential of this method, so its refusal was a guess that
     * failed and counts against its client address ({@link io.loomgate.edge.limit.AuthFailures}).
     */
    default boolean sentCredentials(Headers headers) {
        return false;
    }

    /** {@code "auth": "none"}, and every route that says nothing. */
    AuthModule NONE = new AuthModule() {
        @Override
        public String name() {
            return "none";
        }

        @Override
        public boolean bare() {
            return true;
        }

        @Override
        public boolean configurable() {
            return false;
        }

        @Override
        public AuthSpec read(Optional<Fields> settings) {
            return new None();
        }
    };

    /** {@code "auth": "none"}, and every route that says nothing. */
    record None() implements Auth, AuthSpec {
        @Override
        public boolean checksCaller() {
            return false;
        }

        @Override
        public Auth build(Optional<ApiKeys> keys) {
            return this;
        }

        @Override
        public Caller authenticate(Headers headers) {
            return Caller.ANONYMOUS;
        }
    }

}
