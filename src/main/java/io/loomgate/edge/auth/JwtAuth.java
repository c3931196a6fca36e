package io.loomgate.edge.auth;

import io.loomgate.http.Caller;
import io.loomgate.http.FieldText;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.HeaderNames;
import io.loomgate.module.RouteFileException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

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
        public Optional<LimitKey> limitKey() {
            return Optional.of(new LimitKey("jwt.sub", "a token (\"auth\": {\"jwt\": ...})"));
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
            return new Verified(new JwtVerifier(settings, Instant::now), forwardClaims);
        }
    }

    /**
     * The method, built: a token in {@code Authorization: Bearer}, verified by
     * {@link JwtVerifier}. Its {@code sub} names the caller; {@code forwardClaims} (claim to header)
     * tell upstreams more, and templates may use any claim as {@code {jwt.NAME}}. Those headers are
     * loomgate's alone: a client's own header of such a name never reaches an upstream, even when
     * the token lacks the claim. The token itself is passed on as it came, for upstreams that check
     * it again.
     */
    record Verified(JwtVerifier verifier, Map<String, String> forwardClaims) implements Auth {
        public Verified {
            forwardClaims = Map.copyOf(forwardClaims);
        }

        @Override
        public boolean sentCredentials(Headers headers) {
            return headers.contains("Authorization");
        }

        @Override
        public Caller authenticate(Headers headers) {
            String token = Credentials.bearer(headers);
            if (token == null || token.isEmpty()) {
                throw Credentials.unauthorized("this route needs a token: send it as Authorization: Bearer", null);
            }
            Map<String, Object> claims;
            try {
                claims = verifier.verify(token);
            } catch (JwtVerifier.Rejected r) {
                throw r.status() == 403
                        ? new HttpError(403, "forbidden", r.getMessage(), Map.of(), Map.of("WWW-Authenticate",
                                Credentials.challenge("insufficient_scope", r.getMessage())))
                        : Credentials.unauthorized(r.getMessage(), "invalid_token");
            }
            Headers.Builder upstream = Headers.builder();
            Set<String> claimHeaders = new HashSet<>();
            for (Map.Entry<String, String> f : forwardClaims.entrySet()) {
                claimHeaders.add(f.getValue().toLowerCase(Locale.ROOT));
                Object v = claims.get(f.getKey());
                if (v != null) {
                    String text = v instanceof String s ? s : new JsonWriter(64).tree(v).toString();
                    if (text.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                        throw Credentials.unauthorized("the token's " + f.getKey() + " claim cannot be sent as a header", "invalid_token");
                    }
                    upstream.add(f.getValue(), FieldText.wire(text));
                }
            }
            Optional<String> sub = claims.get("sub") instanceof String s ? Optional.of(s) : Optional.empty();
            return new Caller(sub, claims, upstream.build(), claimHeaders);
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
