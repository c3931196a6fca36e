package io.loomgate.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.edge.limit.AuthFailures;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.PrometheusText;
import io.loomgate.testing.RawConnection;
import io.loomgate.testing.TestClient;
import io.loomgate.testing.TestTokens;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authentication as a stranger attacks it, through a real loomgate: guessing keys and forging
 * tokens gets throttled per client address, what a refusal says is loomgate's own words, and every
 * claim a properly signed token may carry ends in an answer, never a 500.
 */
class AuthAbuseGatewayTest {

    private static final TestTokens TOKENS = new TestTokens();

    @TempDir
    Path dir;
    private ApiUpstream api;
    private FileGate g;

    @BeforeEach
    void start() throws Exception {
        api = ApiUpstream.start().answer("/data", "{\"ok\":true}").answer("/users/", "{\"user\":true}");
        Files.writeString(dir.resolve("keys.txt"), "mobile " + EdgePartsTest.sha256("key-mobile") + "\n");
        TOKENS.writeJwks(dir);
        String upstreams = "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/data\"},"
                + "{\"id\": \"users\", \"kind\": \"http\", \"url\": \"" + api.url() + "\"}";
        g = FileGate.start(dir, upstreams, List.of(
                """
                {"path": "/keyed", "policy": "single", "upstreams": ["api"], "answer": "value", "auth": "apiKey",
                 "rateLimit": {"perSecond": 100, "burst": 100, "by": "apiKey"}}""",
                """
                {"path": "/token", "policy": "single", "upstreams": ["api"], "answer": "value",
                 "auth": {"jwt": {"jwksFile": "jwks.json"}}}""",
                """
                {"path": "/px/*", "policy": "proxy", "upstreams": ["users"],
                 "auth": {"jwt": {"jwksFile": "jwks.json", "forwardClaims": {"email": "X-Email", "groups": "X-Groups"}}}}""",
                """
                {"path": "/counted", "policy": "single", "upstreams": ["api"], "answer": "value", "auth": "apiKey",
                 "preAuthLimit": {"perSecond": 0.001, "burst": 3}}"""),
                "--api-keys", dir.resolve("keys.txt").toString(), "--trusted-proxies", "127.0.0.1", "--admin-port", "0");
    }

    @AfterEach
    void stop() throws Exception {
        g.close();
        api.close();
    }

    private HttpResponse<String> get(String path, String... headers) {
        return g.client().get(path, headers);
    }

    @Test
    void wrongKeysFromOneAddressAreRefusedWith429AfterTheBurstWhileOtherAddressesGoOn() {
        int unauthorized = 0;
        int throttled = 0;
        for (int i = 0; i < 60; i++) {
            int status = get("/keyed", "X-Api-Key", "guess-" + i, "X-Forwarded-For", "198.51.100.9").statusCode();
            unauthorized += status == 401 ? 1 : 0;
            throttled += status == 429 ? 1 : 0;
        }
        assertEquals(AuthFailures.DEFAULT.burst(), unauthorized, "the default burst of refused credentials");
        assertEquals(60 - AuthFailures.DEFAULT.burst(), throttled, "then 429, before any key is looked up");
        HttpResponse<String> right = get("/keyed", "X-Api-Key", "key-mobile", "X-Forwarded-For", "198.51.100.9");
        assertEquals(429, right.statusCode(), "even a right key waits: the address is throttled, not the key");
        assertTrue(right.headers().firstValue("Retry-After").isPresent());
        assertEquals(200, get("/keyed", "X-Api-Key", "key-mobile", "X-Forwarded-For", "198.51.100.10").statusCode(),
                "another address is untouched");
        for (int i = 0; i < 30; i++) {
            assertEquals(401, get("/keyed", "X-Forwarded-For", "198.51.100.11").statusCode(),
                    "a request without any credential is refused without counting: it guessed nothing");
        }
        PrometheusText metrics;
        try (TestClient admin = new TestClient(g.gate().adminUri(""))) {
            metrics = PrometheusText.parse(admin.get("/metrics?format=prometheus").body());
        }
        assertEquals(41, metrics.value("loomgate_limit_refused_total", Map.of("limit", "auth_failures", "route", "*")));
    }

    @Test
    void forgedTokensAreThrottledTooSoTheirSignaturesStopCostingCpu() {
        String forged = TestTokens.foreignRs256(TestTokens.claims("mallory", Map.of()));
        List<Integer> statuses = new java.util.ArrayList<>();
        for (int i = 0; i < 25; i++) {
            statuses.add(get("/token", "Authorization", "Bearer " + forged, "X-Forwarded-For", "198.51.100.20").statusCode());
        }
        assertEquals(List.of(401, 429), statuses.stream().distinct().toList(), statuses.toString());
        assertEquals(AuthFailures.DEFAULT.burst(), statuses.stream().filter(s -> s == 401).count());
    }

    @Test
    void aPreAuthLimitRefusesAnAddressBeforeItsCredentialsAreLookedAt() {
        for (int i = 0; i < 3; i++) {
            assertEquals(200, get("/counted", "X-Api-Key", "key-mobile", "X-Forwarded-For", "198.51.100.30").statusCode());
        }
        HttpResponse<String> fourth = get("/counted", "X-Api-Key", "key-mobile", "X-Forwarded-For", "198.51.100.30");
        assertEquals(429, fourth.statusCode(), fourth.body());
        assertTrue(fourth.body().contains("client address"), fourth.body());
        assertEquals(429, get("/counted", "X-Forwarded-For", "198.51.100.30").statusCode(),
                "without a key too: the pre-auth limit comes first");
        assertEquals(200, get("/counted", "X-Api-Key", "key-mobile", "X-Forwarded-For", "198.51.100.31").statusCode());
    }

    @Test
    void whatARefusalSaysIsLoomgatesOwnWordsOnOneHeaderLine() throws Exception {
        String hostileAlg = b64("{\"alg\":\"x\\r\\n Injected: yes\",\"typ\":\"JWT\"}") + "." + b64("{\"sub\":\"a\"}") + ".c2ln";
        String wide = b64("{\"alg\":\"\u4e2d\u6587\\u0000\",\"typ\":\"JWT\"}") + "." + b64("{\"sub\":\"a\"}") + ".c2ln";
        for (String token : List.of(hostileAlg, wide)) {
            try (RawConnection raw = new RawConnection(new InetSocketAddress("127.0.0.1", g.gate().baseUri().getPort()))) {
                RawConnection.Reply reply = raw.exchange("GET /token HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token
                        + "\r\n\r\n", false);
                assertEquals(401, reply.status(), "an answer, always: " + reply);
                String challenge = reply.header("WWW-Authenticate");
                assertEquals("Bearer realm=\"loomgate\", error=\"invalid_token\", error_description=\"the token's alg is"
                        + " not accepted (RS256 or ES256)\"", challenge);
                assertNull(reply.header("Injected"), "no header of the token's making");
                assertTrue(reply.body().chars().allMatch(c -> c >= 0x20 && c < 0x7f), reply.body());
            }
        }
    }

    @Test
    void everyClaimASignedTokenMayCarryEndsInAnAnswerNeverA500() {
        Map<String, Object> nullEmail = new HashMap<>(TestTokens.claims("ada", Map.of()));
        nullEmail.put("email", null);
        nullEmail.put("groups", List.of("a", "b"));
        HttpResponse<String> forwarded = get("/px/users/7", "Authorization", "Bearer " + TOKENS.es256(nullEmail));
        assertEquals(200, forwarded.statusCode(), forwarded.body());
        ApiUpstream.Request seen = api.requests().getLast();
        assertFalse(seen.headers().containsKey("x-email"), "a null claim is not sent: " + seen.headers());
        assertEquals("[\"a\",\"b\"]", seen.headers().get("x-groups"));

        Map<String, Object> never = new HashMap<>(TestTokens.claims("ada", Map.of()));
        never.put("exp", 1e19);
        assertEquals(200, get("/token", "Authorization", "Bearer " + TOKENS.rs256(never)).statusCode(), "exp past a long's range");
        for (String claim : List.of("nbf", "iat")) {
            Map<String, Object> far = new HashMap<>(TestTokens.claims("ada", Map.of()));
            far.put(claim, 1e19);
            HttpResponse<String> r = get("/token", "Authorization", "Bearer " + TOKENS.rs256(far));
            assertEquals(401, r.statusCode(), claim + ": " + r.body());
        }
        Map<String, Object> ancient = new HashMap<>(TestTokens.claims("ada", Map.of()));
        ancient.put("exp", -1e19);
        HttpResponse<String> r = get("/token", "Authorization", "Bearer " + TOKENS.rs256(ancient));
        assertEquals(401, r.statusCode(), r.body());
        assertTrue(r.body().contains("expired"), r.body());
        Map<String, Object> deep = new HashMap<>(TestTokens.claims("ada", Map.of()));
        deep.put("groups", io.loomgate.json.JsonParser.parse("[".repeat(60) + "]".repeat(60)));
        assertEquals(200, get("/px/users/1", "Authorization", "Bearer " + TOKENS.es256(deep)).statusCode(),
                "a deep claim forwarded as JSON");
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
