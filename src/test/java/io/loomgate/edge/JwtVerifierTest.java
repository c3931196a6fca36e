package io.loomgate.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.edge.auth.EdgeException;
import io.loomgate.edge.auth.Jwks;
import io.loomgate.edge.auth.JwtVerifier;
import io.loomgate.testing.TestTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JWT checks on their own, with keys and tokens made here: what is accepted, and every way a token is not. */
class JwtVerifierTest {

    private static final TestTokens TOKENS = new TestTokens();

    @TempDir
    Path dir;

    private JwtVerifier verifier(Map<String, String> require) throws Exception {
        Jwks keys = Jwks.read(TOKENS.writeJwks(dir));
        return new JwtVerifier(new JwtVerifier.Settings(keys, Optional.of("https://id.test"), Optional.of("orders"),
                Duration.ofSeconds(30), require), Instant::now);
    }

    private static Map<String, Object> good(Map<String, Object> more) {
        Map<String, Object> c = new java.util.LinkedHashMap<>(Map.of("iss", "https://id.test", "aud", "orders"));
        c.putAll(more);
        return TestTokens.claims("ada", c);
    }

    private String rejected(String token) throws Exception {
        return assertThrows(JwtVerifier.Rejected.class, () -> verifier(Map.of()).verify(token)).getMessage();
    }

    @Test
    void rs256AndEs256TokensFromTheKeySetAreAccepted() throws Exception {
        assertEquals("ada", verifier(Map.of()).verify(TOKENS.rs256(good(Map.of()))).get("sub"));
        assertEquals("ada", verifier(Map.of()).verify(TOKENS.es256(good(Map.of()))).get("sub"));
        assertEquals("ada", verifier(Map.of()).verify(TOKENS.rs256(good(Map.of("aud", List.of("billing", "orders"))))).get("sub"),
                "an audience array that holds ours");
    }

    @Test
    void timesAreCheckedWithTheSkew() throws Exception {
        assertTrue(rejected(TOKENS.rs256(good(Map.of("exp", TestTokens.inSeconds(-31))))).startsWith("the token expired at "));
        verifier(Map.of()).verify(TOKENS.rs256(good(Map.of("exp", TestTokens.inSeconds(-20)))));   // within the 30 s skew
        assertTrue(rejected(TOKENS.rs256(good(Map.of("nbf", TestTokens.inSeconds(120))))).startsWith("the token is not valid before"));
        assertTrue(rejected(TOKENS.rs256(good(Map.of("iat", TestTokens.inSeconds(120))))).startsWith("the token was issued in the future"));
        Map<String, Object> noExp = new java.util.LinkedHashMap<>(good(Map.of()));
        noExp.remove("exp");
        assertEquals("the token has no exp: it would never expire", rejected(TOKENS.rs256(noExp)));
        assertEquals("the token's exp is not a number of seconds", rejected(TOKENS.rs256(good(Map.of("exp", "tomorrow")))));
    }

    @Test
    void issuerAudienceAndSignatureMustMatch() throws Exception {
        assertEquals("the token is not from the expected issuer (iss must be https://id.test)",
                rejected(TOKENS.rs256(good(Map.of("iss", "https://evil.test")))));
        assertEquals("the token is not for this audience (aud must hold orders)", rejected(TOKENS.rs256(good(Map.of("aud", "billing")))));
        assertEquals("the signature does not verify with any of the route's keys", rejected(TestTokens.foreignRs256(good(Map.of()))));
        String token = TOKENS.rs256(good(Map.of()));
        String tampered = token.substring(0, token.indexOf('.') + 1)
                + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                        "{\"sub\":\"root\",\"iss\":\"https://id.test\",\"aud\":\"orders\",\"exp\":9999999999}".getBytes())
                + token.substring(token.lastIndexOf('.'));
        assertEquals("the signature does not verify with any of the route's keys", rejected(tampered));
        String unknownKid = TOKENS.es256WithHeader("{\"alg\":\"ES256\",\"typ\":\"JWT\",\"kid\":\"rotated-away\"}", good(Map.of()));
        assertEquals("the token's kid names no key in the route's key set (jwksFile)", rejected(unknownKid),
                "an unknown kid is said to be one, and not echoed");
    }

    @Test
    void unsignedAndHmacTokensAreRefusedWhateverTheyClaim() throws Exception {
        assertEquals("unsigned tokens (alg none) are not accepted", rejected(TestTokens.unsigned(good(Map.of()))));
        assertTrue(rejected(TOKENS.hs256WithPublicKey(good(Map.of()))).startsWith("HMAC tokens (alg HS256, HS384 or HS512) are not accepted"),
                "the key-confusion attack");
        assertEquals("the token's alg is not accepted (RS256 or ES256)", rejected(
                TOKENS.rs256(good(Map.of())).replaceFirst("^[^.]+", java.util.Base64.getUrlEncoder().withoutPadding()
                        .encodeToString("{\"alg\":\"PS256\"}".getBytes()))));
    }

    @Test
    void malformedTokensSayWhatIsWrong() throws Exception {
        assertEquals("not a JWT: it must be three base64url parts joined by dots", rejected("abc.def"));
        assertEquals("the token's header is not a JSON object", rejected("bm90IGpzb24.e30.c2ln"));
        assertEquals("the token's signature is not base64url without padding", rejected(TOKENS.rs256(good(Map.of())) + "=="));
        assertEquals("the token is longer than 8192 characters", rejected("a".repeat(9000)));
        assertEquals("the token's header names critical extensions (crit), and none is understood here", rejected(
                TOKENS.es256WithHeader("{\"alg\":\"ES256\",\"kid\":\"ec-1\",\"crit\":[\"exp2\"],\"exp2\":1}", good(Map.of()))));
    }

    @Test
    void aRequiredClaimThatDoesNotHoldIs403() throws Exception {
        JwtVerifier v = verifier(Map.of("scope", "orders:read"));
        v.verify(TOKENS.rs256(good(Map.of("scope", "profile orders:read"))));
        JwtVerifier.Rejected r = assertThrows(JwtVerifier.Rejected.class,
                () -> v.verify(TOKENS.rs256(good(Map.of("scope", "profile")))));
        assertEquals(403, r.status());
        assertEquals("the token's scope claim does not hold orders:read", r.getMessage());
    }

    @Test
    void aKeySetOfSymmetricOrWeakKeysIsRefused() throws Exception {
        Path oct = dir.resolve("oct.json");
        Files.writeString(oct, "{\"keys\": [{\"kty\": \"oct\", \"k\": \"c2VjcmV0\"}]}");
        assertTrue(assertThrows(EdgeException.class, () -> Jwks.read(oct)).getMessage().contains("is a symmetric key (kty oct)"));
        Path p384 = dir.resolve("p384.json");
        Files.writeString(p384, "{\"keys\": [{\"kty\": \"EC\", \"crv\": \"P-384\", \"x\": \"AA\", \"y\": \"AA\"}]}");
        assertTrue(assertThrows(EdgeException.class, () -> Jwks.read(p384)).getMessage()
                .endsWith("keys[0] is EC; only the P-256 curve with ES256 is accepted"));
        Path empty = dir.resolve("empty.json");
        Files.writeString(empty, "{\"keys\": []}");
        assertTrue(assertThrows(EdgeException.class, () -> Jwks.read(empty)).getMessage().endsWith("needs a non-empty \"keys\" array"));
    }
}
