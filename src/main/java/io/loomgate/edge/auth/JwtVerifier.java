package io.loomgate.edge.auth;

import io.loomgate.json.JsonParser;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Checks a JWT (RFC 7519) with {@code java.security} alone: its signature by RS256 or ES256 with a
 * key of the route's {@link Jwks}, then {@code exp} (required), {@code nbf} and {@code iat} against
 * the clock with a small skew, then the issuer and audience the route asks for. A token that fails
 * any of these is {@link Rejected} with 401; one that is valid but lacks a claim the route requires
 * is rejected with 403.
 *
 * <p>The header's {@code alg} decides nothing on its own: {@code none} and the HMAC algorithms are
 * refused outright (an HMAC token "signed" with a public key as its secret is the classic confusion
 * attack), and a key verifies only the one algorithm its type allows.
 */
public final class JwtVerifier {

    /** Longest token accepted, in characters. */
    static final int MAX_LENGTH = 8192;

    /**
     * @param issuer    the {@code iss} a token must carry, if set
     * @param audience  a value its {@code aud} (a string or an array) must hold, if set
     * @param clockSkew how far {@code exp}, {@code nbf} and {@code iat} may be off
     * @param require   claims that must hold a value: equal to it, an array holding it, or (for a
     *                  space-separated claim such as {@code scope}) a string listing it
     */
    public record Settings(Jwks keys, Optional<String> issuer, Optional<String> audience, Duration clockSkew,
                           Map<String, String> require) {
        public Settings {
            Objects.requireNonNull(keys, "keys");
            Objects.requireNonNull(issuer, "issuer");
            Objects.requireNonNull(audience, "audience");
            Objects.requireNonNull(clockSkew, "clockSkew");
            require = Map.copyOf(require);
        }
    }

    /** Why a token was not accepted: {@code status} 401 (not a valid token) or 403 (valid, but not allowed here). */
    public static final class Rejected extends Exception {
        private final int status;

        Rejected(int status, String why) {
            super(why, null, false, false);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    private final Settings settings;
    private final Supplier<Instant> clock;

    public JwtVerifier(Settings settings, Supplier<Instant> clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** The token's claims, when it passes every check. */
    public Map<String, Object> verify(String token) throws Rejected {
        if (token.length() > MAX_LENGTH) {
            throw new Rejected(401, "the token is longer than " + MAX_LENGTH + " characters");
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            throw new Rejected(401, "not a JWT: it must be three base64url parts joined by dots");
        }
        Map<String, Object> header = json(parts[0], "header");
        String alg = header.get("alg") instanceof String a ? a : "";
        switch (alg) {
            case "RS256", "ES256" -> { }
            case "none", "" -> throw new Rejected(401, "unsigned tokens (alg none) are not accepted");
            case "HS256", "HS384", "HS512" -> throw new Rejected(401, "HMAC tokens (alg HS256, HS384 or HS512) are not"
                    + " accepted: this route's keys are public keys, and only their issuer may sign");
            default -> throw new Rejected(401, "the token's alg is not accepted (RS256 or ES256)");
        }
        if (header.containsKey("crit")) {
            throw new Rejected(401, "the token's header names critical extensions (crit), and none is understood here");
        }
        byte[] signature = decode(parts[2], "signature");
        byte[] signed = (parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII);
        String kid = header.get("kid") instanceof String k ? k : null;
        if (kid != null && settings.keys().keys().stream().noneMatch(key -> key.kid().isEmpty() || key.kid().equals(kid))) {
            // the id is the client's: said to be unknown, never echoed
            throw new Rejected(401, "the token's kid names no key in the route's key set (jwksFile)");
        }
        if (!verified(alg, kid, signed, signature)) {
            throw new Rejected(401, "the signature does not verify with any of the route's keys");
        }
        Map<String, Object> claims = json(parts[1], "payload");
        checkTimes(claims);
        if (settings.issuer().isPresent() && !settings.issuer().get().equals(claims.get("iss"))) {
            throw new Rejected(401, "the token is not from the expected issuer (iss must be " + settings.issuer().get() + ")");
        }
        if (settings.audience().isPresent() && !holds(claims.get("aud"), settings.audience().get(), false)) {
            throw new Rejected(401, "the token is not for this audience (aud must hold " + settings.audience().get() + ")");
        }
        for (Map.Entry<String, String> r : settings.require().entrySet()) {
            if (!holds(claims.get(r.getKey()), r.getValue(), true)) {
                throw new Rejected(403, "the token's " + r.getKey() + " claim does not hold " + r.getValue());
            }
        }
        return claims;
    }

    private boolean verified(String alg, String kid, byte[] signed, byte[] signature) {
        for (Jwks.Key key : settings.keys().keys()) {
            if (!key.alg().equals(alg) || (kid != null && !key.kid().isEmpty() && !key.kid().equals(kid))) {
                continue;
            }
            try {
                Signature v = Signature.getInstance(alg.equals("RS256") ? "SHA256withRSA" : "SHA256withECDSAinP1363Format");
                v.initVerify(key.key());
                v.update(signed);
                if (v.verify(signature)) {
                    return true;
                }
            } catch (GeneralSecurityException malformedSignature) {
                // not this key's
            }
        }
        return false;
    }

    private void checkTimes(Map<String, Object> claims) throws Rejected {
        long now = clock.get().getEpochSecond();
        long skew = settings.clockSkew().toSeconds();
        long exp = seconds(claims, "exp").orElseThrow(() -> new Rejected(401, "the token has no exp: it would never expire"));
        if (now - skew > exp) {
            throw new Rejected(401, "the token expired at " + instant(exp));
        }
        Optional<Long> nbf = seconds(claims, "nbf");
        if (nbf.isPresent() && now + skew < nbf.get()) {
            throw new Rejected(401, "the token is not valid before " + instant(nbf.get()));
        }
        Optional<Long> iat = seconds(claims, "iat");
        if (iat.isPresent() && now + skew < iat.get()) {
            throw new Rejected(401, "the token was issued in the future (" + instant(iat.get()) + ")");
        }
    }

    /**
     * A NumericDate claim in whole seconds: fractions are cut, and a value past what a long holds
     * (1e19, as some identity providers write "never") is held at the nearest end, never an error.
     */
    private static Optional<Long> seconds(Map<String, Object> claims, String name) throws Rejected {
        return switch (claims.get(name)) {
            case null -> Optional.empty();
            case Long l -> Optional.of(l);
            case Double d when !d.isNaN() -> Optional.of((long) Math.floor(d));   // saturates at the long range
            default -> throw new Rejected(401, "the token's " + name + " is not a number of seconds");
        };
    }

    /** A time as a message shows it; one beyond what {@link Instant} holds is shown at its end. */
    private static String instant(long epochSeconds) {
        long held = Math.clamp(epochSeconds, Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond());
        return Instant.ofEpochSecond(held).toString();
    }

    /** True when {@code claim} is {@code value}, an array holding it, or (if {@code listed}) a space-separated string naming it. */
    private static boolean holds(Object claim, String value, boolean listed) {
        return switch (claim) {
            case String s -> s.equals(value) || (listed && List.of(s.split(" ")).contains(value));
            case List<?> l -> l.contains(value);
            case Boolean b -> b.toString().equals(value);
            case Number n -> n.toString().equals(value);
            case null, default -> false;
        };
    }

    private static Map<String, Object> json(String part, String what) throws Rejected {
        try {
            return JsonParser.parseObject(new String(decode(part, what), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new Rejected(401, "the token's " + what + " is not a JSON object");
        }
    }

    private static byte[] decode(String part, String what) throws Rejected {
        if (part.isEmpty() || part.indexOf('=') >= 0) {
            throw new Rejected(401, "the token's " + what + " is not base64url without padding");
        }
        try {
            return Base64.getUrlDecoder().decode(part);
        } catch (IllegalArgumentException e) {
            throw new Rejected(401, "the token's " + what + " is not base64url");
        }
    }
}
