package io.loomgate.edge.auth;

import io.loomgate.module.Fields;
import io.loomgate.module.HeaderNames;
import io.loomgate.module.RouteFileException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code "auth": {"jwt": {...}}}: a token verified against a JSON Web Key Set ({@link JwtVerifier}),
 * its claims the caller's, some of them forwarded to upstreams as headers.
 *
 * <pre>{@code
 * "auth": {"jwt": {"jwksFile": "keys.json", "issuer": "https://id.example", "audience": "orders",
 *                  "require": {"scope": "orders:read"}, "forwardClaims": {"sub": "X-User"}}}
 * }</pre>
 */
public final class JwtAuth {

    private static final Duration DEFAULT_SKEW = Duration.ofSeconds(60);
    private static final List<String> FIELDS = List.of("jwksFile", "issuer", "audience", "clockSkew", "require", "forwardClaims");

    /** The module of {@code "auth": {"jwt": {...}}}; a JWKS file's name is found beside the route file when relative. */
    public static final AuthModule MODULE = new AuthModule() {
        @Override
        public String name() {
            return "jwt";
        }

        @Override
        public boolean bare() {
            return false;
        }

        @Override
        public boolean configurable() {
            return true;
        }

        @Override
        public AuthSpec read(Optional<Fields> settings) throws RouteFileException {
            return JwtAuth.read(settings.orElseThrow());
        }
    };

    /**
     * A JWT route's settings.
     *
     * @param settings      what a token must be to pass
     * @param forwardClaims claim to header, for every upstream call
     * @param jwksFile      the key set's file as the route file names it
     */
    public record Spec(JwtVerifier.Settings settings, Map<String, String> forwardClaims, String jwksFile) implements AuthSpec {
        public Spec {
            Objects.requireNonNull(settings, "settings");
            forwardClaims = Map.copyOf(forwardClaims);
            Objects.requireNonNull(jwksFile, "jwksFile");
        }

        @Override
        public boolean checksCaller() {
            return true;
        }

        @Override
        public boolean claims() {
            return true;
        }

        @Override
        public Optional<String> limitKey() {
            return Optional.of("jwt.sub");
        }

        @Override
        public Auth build(Optional<ApiKeys> keys) {
            return new Auth.Jwt(new JwtVerifier(settings, Instant::now), forwardClaims);
        }
    }

    private JwtAuth() {
    }

    private static Spec read(Fields j) throws RouteFileException {
        String file = j.string("jwksFile");
        Jwks keys;
        try {
            keys = Jwks.read(j.file(file));
        } catch (EdgeException e) {
            throw j.bad("jwksFile", "must be a JSON Web Key Set of RSA or EC P-256 public keys: " + e.getMessage(), file);
        }
        Optional<String> issuer = j.optionalString("issuer");
        Optional<String> audience = j.optionalString("audience");
        Duration skew = j.optionalDuration("clockSkew", Duration.ZERO, Duration.ofMinutes(10)).orElse(DEFAULT_SKEW);
        Map<String, String> require = strings(j, "require", "a claim's value, as a string");
        Map<String, String> forward = strings(j, "forwardClaims", "a header name");
        for (Map.Entry<String, String> e : forward.entrySet()) {
            if (!HeaderNames.isFillable(e.getValue())) {
                throw j.bad("forwardClaims." + e.getKey(), HeaderNames.REFUSED, e.getValue());
            }
        }
        j.finish("jwt auth", FIELDS);
        return new Spec(new JwtVerifier.Settings(keys, issuer, audience, skew, require), forward, file);
    }

    private static Map<String, String> strings(Fields j, String field, String what) throws RouteFileException {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : j.optionalObject(field).orElse(Map.of()).entrySet()) {
            if (!(e.getValue() instanceof String s) || s.isEmpty()) {
                throw j.bad(field + "." + e.getKey(), "must be " + what, e.getValue());
            }
            out.put(e.getKey(), s);
        }
        return out;
    }
}
