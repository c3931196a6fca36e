package io.loomgate.http;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Who is calling, as the route's authentication found out: the name of an API key, the claims of a
 * verified JWT, and the headers the route file says upstreams are told about them
 * ({@code X-Consumer: mobile-app}, {@code X-User: 42}). Anonymous on routes that require nothing.
 *
 * @param name     the API key's name, or the token's subject; empty when anonymous
 * @param claims   a verified JWT's claims (JSON values); empty otherwise
 * @param upstream headers for every upstream call made for the request, name and value; a client's
 *                 own headers of these names are never passed on
 * @param consumed request headers, lower case, never passed on to an upstream: one that carried a
 *                 credential loomgate checked and keeps to itself (an API key), or one the route
 *                 fills from a claim, whether or not this token held the claim
 */
public record Caller(Optional<String> name, Map<String, Object> claims, Headers upstream, Set<String> consumed) {

    public static final Caller ANONYMOUS = new Caller(Optional.empty(), Map.of(), Headers.EMPTY, Set.of());

    public Caller {
        Objects.requireNonNull(name, "name");
        claims = Collections.unmodifiableMap(new LinkedHashMap<>(claims));   // a claim may be JSON null
        Objects.requireNonNull(upstream, "upstream");
        consumed = Set.copyOf(consumed);
    }

    /**
     * False for a client header that must not reach an upstream: one that carried a credential
     * loomgate consumed, one a claim may fill, or one of the names loomgate itself sets about the caller.
     */
    public boolean passesOn(String lowerName) {
        if (consumed.contains(lowerName)) {
            return false;
        }
        return !upstream.contains(lowerName);
    }
}
