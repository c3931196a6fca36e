package io.loomgate.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.api.Endpoints;
import io.loomgate.config.AddressRanges;
import io.loomgate.demo.SimulatedKind;
import io.loomgate.edge.limit.AuthFailures;
import io.loomgate.edge.limit.RateLimiter;
import io.loomgate.module.HeaderNames;
import io.loomgate.module.RouteFileException;
import io.loomgate.testing.LogCapture;
import io.loomgate.testing.TestTokens;
import io.loomgate.upstream.http.HttpKind;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The edge of a route file, as an attacker or a careless operator would write it: no header that
 * frames a message may be filled from a token, a key's name or a template, and a key set may hold
 * only keys that are what they claim. Each refusal is one line naming the file, the JSON path and
 * the value.
 */
class EdgeRouteFileTest {

    private static final TestTokens TOKENS = new TestTokens();
    private final SimulatedKind simulated = new SimulatedKind();
    private final HttpKind http = new HttpKind(AddressRanges.NONE);

    @TempDir
    Path dir;

    @AfterEach
    void close() throws Exception {
        simulated.close();
        http.close();
    }

    private Plan read(String routes) throws Exception {
        return read(routes, "");
    }

    private Plan read(String routes, String top) throws Exception {
        if (!Files.exists(dir.resolve("jwks.json"))) {
            TOKENS.writeJwks(dir);
        }
        Path file = dir.resolve("routes.json");
        Files.writeString(file, "{\"upstreams\": [{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:1/\"}],"
                + top + " \"routes\": " + routes + "}");
        return PlanReader.read(file, io.loomgate.Modules.of(simulated, http), Endpoints.OPERATOR_PATHS);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            {"jwt": {"jwksFile": "jwks.json", "forwardClaims": {"sub": "Host"}}}|forwardClaims.sub|Host
            {"jwt": {"jwksFile": "jwks.json", "forwardClaims": {"name": "Transfer-Encoding"}}}|forwardClaims.name|Transfer-Encoding
            {"jwt": {"jwksFile": "jwks.json", "forwardClaims": {"n": "content-length"}}}|forwardClaims.n|content-length
            {"jwt": {"jwksFile": "jwks.json", "forwardClaims": {"n": "Proxy-Authorization"}}}|forwardClaims.n|Proxy-Authorization
            {"jwt": {"jwksFile": "jwks.json", "forwardClaims": {"n": "TE"}}}|forwardClaims.n|TE
            {"apiKey": {"nameHeader": "Content-Length"}}|apiKey.nameHeader|Content-Length
            {"apiKey": {"nameHeader": "Connection"}}|apiKey.nameHeader|Connection
            {"apiKey": {"nameHeader": "Upgrade"}}|apiKey.nameHeader|Upgrade
            {"apiKey": {"nameHeader": "Keep-Alive"}}|apiKey.nameHeader|Keep-Alive
            {"apiKey": {"nameHeader": "Trailer"}}|apiKey.nameHeader|Trailer
            """)
    void noHeaderThatFramesAMessageMayBeFilledFromACredential(String auth, String field, String header) {
        String message = assertThrows(RouteFileException.class, () -> read(
                "[{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"api\"], \"auth\": " + auth + "}]")).getMessage();
        assertTrue(message.startsWith(dir.resolve("routes.json") + ": routes[0].auth."), message);
        assertTrue(message.contains(field + " " + HeaderNames.REFUSED + "; got '" + header + "'"), message);
    }

    @Test
    void noHeaderThatFramesAMessageMayBeFilledFromATemplate() {
        String message = assertThrows(RouteFileException.class, () -> read("""
                [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "headers": {"Proxy-Connection": "x"}}}}]""")).getMessage();
        assertTrue(message.endsWith("routes[0].calls.a.headers.Proxy-Connection " + HeaderNames.REFUSED + "; got 'Proxy-Connection'"),
                message);
    }

    @Test
    void keysForEncryptionAreSkippedWithAWarningNamingTheirKid() throws Exception {
        RSAPublicKey rsa = (RSAPublicKey) TOKENS.rsa.getPublic();
        String enc = "{\"kty\": \"RSA\", \"kid\": \"enc-1\", \"use\": \"enc\", \"n\": \"" + b64(rsa.getModulus())
                + "\", \"e\": \"" + b64(rsa.getPublicExponent()) + "\"}";
        String wrap = "{\"kty\": \"RSA\", \"kid\": \"wrap-1\", \"key_ops\": [\"wrapKey\"], \"n\": \"" + b64(rsa.getModulus())
                + "\", \"e\": \"" + b64(rsa.getPublicExponent()) + "\"}";
        String sig = TOKENS.jwks().substring(TOKENS.jwks().indexOf('[') + 1, TOKENS.jwks().lastIndexOf(']'));
        Files.writeString(dir.resolve("jwks.json"), "{\"keys\": [" + enc + ", " + wrap + ", " + sig + "]}");
        try (LogCapture log = LogCapture.of("loomgate")) {
            read("[{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"api\"], \"auth\": {\"jwt\": {\"jwksFile\": \"jwks.json\"}}}]");
            assertTrue(log.lines().stream().anyMatch(l -> l.contains("keys[0] (kid \"enc-1\") is ignored: its use is \"enc\"")),
                    log.lines().toString());
            assertTrue(log.lines().stream().anyMatch(l -> l.contains("keys[1] (kid \"wrap-1\") is ignored: its key_ops")),
                    log.lines().toString());
        }
        Files.writeString(dir.resolve("jwks.json"), "{\"keys\": [" + enc + "]}");
        assertTrue(assertThrows(RouteFileException.class, () -> read("[{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\":"
                + " [\"api\"], \"auth\": {\"jwt\": {\"jwksFile\": \"jwks.json\"}}}]")).getMessage()
                .contains("holds no key for checking signatures"));
    }

    @Test
    void anEcPointOffTheCurveAndAnOversizedRsaKeyStopTheStart() throws Exception {
        ECPublicKey ec = (ECPublicKey) TOKENS.ec.getPublic();
        String offCurve = "{\"keys\": [{\"kty\": \"EC\", \"crv\": \"P-256\", \"x\": \"" + b64(ec.getW().getAffineX())
                + "\", \"y\": \"" + b64(ec.getW().getAffineY().add(BigInteger.ONE)) + "\"}]}";
        assertEquals("is not a point on the P-256 curve", refusal(offCurve));
        BigInteger modulus = BigInteger.ONE.shiftLeft(8199).add(BigInteger.ONE);   // 8200 bits; a key need not be made to be refused
        String huge = "{\"keys\": [{\"kty\": \"RSA\", \"n\": \"" + b64(modulus) + "\", \"e\": \"AQAB\"}]}";
        assertEquals("is an RSA key of 8200 bits; 2048 to 8192 are accepted", refusal(huge));
    }

    private String refusal(String jwks) throws Exception {
        Files.writeString(dir.resolve("jwks.json"), jwks);
        String m = assertThrows(RouteFileException.class, () -> read("[{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"api\"],"
                + " \"auth\": {\"jwt\": {\"jwksFile\": \"jwks.json\"}}}]")).getMessage();
        return m.substring(m.indexOf("keys[0] ") + "keys[0] ".length(), m.lastIndexOf("; got"));
    }

    @Test
    void authFailuresAndLimitsReadTheirSettings() throws Exception {
        Plan table = read("""
                [{"path": "/x", "policy": "single", "upstreams": ["api"], "preAuthLimit": {"perSecond": 5, "burst": 10, "maxKeys": 500},
                  "rateLimit": {"perSecond": 1, "maxKeys": 50}}]""", "\"authFailures\": {\"burst\": 5, \"perSecond\": 0.5},");
        assertEquals(Optional.of(new RateLimiter.Settings(0.5, 5, "ip", RateLimiter.DEFAULT_MAX_KEYS)), table.authFailures());
        assertEquals(Optional.of(new RateLimiter.Settings(5, 10, "ip", 500)), table.routes().getFirst().edge().preAuth());
        assertEquals(50, table.routes().getFirst().edge().rateLimit().orElseThrow().maxKeys());
        assertEquals(Optional.empty(), read("[]", "\"authFailures\": \"off\",").authFailures());
        assertEquals(Optional.of(AuthFailures.DEFAULT), read("[]").authFailures());
    }

    private static String b64(BigInteger n) {
        byte[] b = n.toByteArray();
        if (b[0] == 0 && b.length > 1) {
            b = java.util.Arrays.copyOfRange(b, 1, b.length);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
