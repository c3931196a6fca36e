package io.loomgate.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.Background;
import io.loomgate.testing.LogCapture;
import io.loomgate.testing.TestClient;
import io.loomgate.testing.TestTokens;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * API keys, JWTs and rate limits through a real loomgate and a real upstream: who gets in, what the
 * upstream is told about them, what a refusal says, and that no refusal ever reaches the upstream.
 */
class EdgeGatewayTest {

    private static final TestTokens TOKENS = new TestTokens();

    @TempDir
    Path dir;
    private ApiUpstream api;
    private Loomgate gate;
    private TestClient client;

    @BeforeEach
    void files() throws Exception {
        api = ApiUpstream.start().answer("/data", "{\"ok\":true}").answer("/users/", "{\"user\":true}").answer("/slow", "{}")
                .hold("/slow");
        Files.writeString(dir.resolve("keys.txt"), "mobile-app " + EdgePartsTest.sha256("key-mobile") + "\nbilling "
                + EdgePartsTest.sha256("key-billing") + "\n");
        TOKENS.writeJwks(dir);
        Files.writeString(dir.resolve("routes.json"), """
                {"upstreams": [{"id": "api", "kind": "http", "url": "%s/data", "forwardHeaders": ["X-Consumer", "Authorization"]},
                               {"id": "users", "kind": "http", "url": "%s"},
                               {"id": "slow", "kind": "http", "url": "%s/slow"}],
                 "routes": [
                   {"path": "/keyed", "policy": "single", "upstreams": ["api"], "answer": "value",
                    "auth": {"apiKey": {"nameHeader": "X-Consumer"}}},
                   {"path": "/me/{id}", "policy": "compose",
                    "auth": {"jwt": {"jwksFile": "jwks.json", "issuer": "https://id.test", "audience": "orders",
                                     "forwardClaims": {"sub": "X-User"}}},
                    "calls": {"user": {"upstream": "users", "path": "/users/{jwt.sub}?asked={id}"}}},
                   {"path": "/scoped", "policy": "single", "upstreams": ["api"], "answer": "value",
                    "auth": {"jwt": {"jwksFile": "jwks.json", "require": {"scope": "orders:read"}}}},
                   {"path": "/limited", "policy": "single", "upstreams": ["api"], "answer": "value",
                    "auth": "apiKey", "rateLimit": {"perSecond": 0.01, "burst": 3, "by": "apiKey"}},
                   {"path": "/limited-ip", "policy": "single", "upstreams": ["api"], "answer": "value",
                    "rateLimit": {"perSecond": 0.01, "burst": 1, "by": "ip"}},
                   {"path": "/limited-jwt", "policy": "single", "upstreams": ["api"], "answer": "value",
                    "auth": {"jwt": {"jwksFile": "jwks.json"}}, "rateLimit": {"perSecond": 0.01, "burst": 1, "by": "jwt.sub"}},
                   {"path": "/slow", "policy": "single", "upstreams": ["slow"], "timeout": "10s"},
                   {"path": "/px/*", "policy": "proxy", "upstreams": ["users"],
                    "auth": {"jwt": {"jwksFile": "jwks.json", "forwardClaims": {"sub": "X-User", "email": "X-Email"}}}}]}
                """.formatted(api.url(), api.url(), api.url()));
    }

    private void start(String... flags) throws Exception {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--routes", dir.resolve("routes.json").toString(),
                "--api-keys", dir.resolve("keys.txt").toString()));
        args.addAll(List.of(flags));
        gate = Loomgate.start(CommandLine.config(args.toArray(String[]::new)));
        client = new TestClient(gate.baseUri());
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
            gate.close();
        }
        api.close();
    }

    private HttpResponse<String> get(String path, String... headers) {
        return client.get(path, headers);
    }

    @Test
    void anApiKeyLetsItsHolderInAndOnlyItsNameReachesTheUpstream() throws Exception {
        start("--access-log");
        try (LogCapture access = LogCapture.of("loomgate.access")) {
            HttpResponse<String> none = get("/keyed");
            assertEquals(401, none.statusCode());
            assertEquals("Bearer realm=\"loomgate\"", none.headers().firstValue("WWW-Authenticate").orElse(""));
            HttpResponse<String> wrong = get("/keyed", "X-Api-Key", "key-guess");
            assertEquals(401, wrong.statusCode());
            assertTrue(wrong.headers().firstValue("WWW-Authenticate").orElse("").contains("error=\"invalid_token\""));
            assertEquals(List.of(), api.requests(), "no refusal reached the upstream");

            assertEquals(200, get("/keyed", "X-Api-Key", "key-mobile", "X-Consumer", "admin").statusCode());
            assertEquals(200, get("/keyed", "Authorization", "Bearer key-billing").statusCode());
            List<ApiUpstream.Request> seen = api.requests();
            assertEquals("mobile-app", seen.get(0).headers().get("x-consumer"), "the client's own X-Consumer is replaced");
            assertNull(seen.get(0).headers().get("x-api-key"), "the key itself stays with loomgate");
            assertEquals("billing", seen.get(1).headers().get("x-consumer"));
            assertNull(seen.get(1).headers().get("authorization"), "a key sent as Bearer stays too");
            org.awaitility.Awaitility.await().until(() -> access.lines().stream().anyMatch(l -> l.contains("caller=billing")));
            assertTrue(access.lines().stream().anyMatch(l -> l.startsWith("GET /keyed 401") && !l.contains("caller=")),
                    access.lines().toString());
        }
    }

    @Test
    void tokensWithoutSubAreKeyedByTheirJtiElseTheClientAddressNeverOneSharedBucket() throws Exception {
        start();
        Map<String, Object> a = new java.util.HashMap<>(TestTokens.claims("x", Map.of("jti", "token-a")));
        a.remove("sub");
        Map<String, Object> b = new java.util.HashMap<>(TestTokens.claims("x", Map.of("jti", "token-b")));
        b.remove("sub");
        Map<String, Object> anonymous = new java.util.HashMap<>(TestTokens.claims("x", Map.of()));
        anonymous.remove("sub");
        String tokenA = "Bearer " + TOKENS.es256(a);
        assertEquals(200, get("/limited-jwt", "Authorization", tokenA).statusCode());
        assertEquals(429, get("/limited-jwt", "Authorization", tokenA).statusCode(), "token a spent its own burst of 1");
        assertEquals(200, get("/limited-jwt", "Authorization", "Bearer " + TOKENS.es256(b)).statusCode(),
                "token b has a bucket of its own (before: one bucket for every token without sub)");
        assertEquals(200, get("/limited-jwt", "Authorization", "Bearer " + TOKENS.es256(anonymous)).statusCode(),
                "without sub or jti: the client address's bucket");
        assertEquals(429, get("/limited-jwt", "Authorization", "Bearer " + TOKENS.es256(anonymous)).statusCode());
        assertEquals(200, get("/limited-jwt", "Authorization", "Bearer " + TOKENS.es256(TestTokens.claims("ada", Map.of()))).statusCode());
    }

    @Test
    void aValidJwtsClaimsFillTemplatesAndHeadersAndEveryBadTokenIs401() throws Exception {
        start();
        Map<String, Object> good = TestTokens.claims("ada", Map.of("iss", "https://id.test", "aud", "orders"));
        HttpResponse<String> ok = get("/me/7", "Authorization", "Bearer " + TOKENS.es256(good));
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals("/users/ada?asked=7", api.requests().getLast().target(), "{jwt.sub} filled the call's path");
        assertEquals("ada", api.requests().getLast().headers().get("x-user"));

        Map<String, String> bad = new java.util.LinkedHashMap<>();
        bad.put("expired", TOKENS.rs256(TestTokens.claims("ada", Map.of("iss", "https://id.test", "aud", "orders",
                "exp", TestTokens.inSeconds(-600)))));
        bad.put("another audience", TOKENS.rs256(TestTokens.claims("ada", Map.of("iss", "https://id.test", "aud", "billing"))));
        bad.put("a key not in the set", TestTokens.foreignRs256(good));
        bad.put("alg none", TestTokens.unsigned(good));
        bad.put("HMAC with the public key", TOKENS.hs256WithPublicKey(good));
        int before = api.requests().size();
        for (Map.Entry<String, String> b : bad.entrySet()) {
            HttpResponse<String> r = get("/me/7", "Authorization", "Bearer " + b.getValue());
            assertEquals(401, r.statusCode(), b.getKey() + ": " + r.body());
            assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer realm=\"loomgate\", error=\"invalid_token\""),
                    b.getKey());
        }
        assertEquals(401, get("/me/7").statusCode(), "no token");
        HttpResponse<String> scoped = get("/scoped", "Authorization", "Bearer " + TOKENS.rs256(TestTokens.claims("ada", Map.of("scope", "profile"))));
        assertEquals(403, scoped.statusCode(), scoped.body());
        assertTrue(scoped.headers().firstValue("WWW-Authenticate").orElse("").contains("error=\"insufficient_scope\""));
        assertEquals(before, api.requests().size(), "no refused token reached the upstream");
        assertEquals(200, get("/scoped", "Authorization", "Bearer " + TOKENS.rs256(TestTokens.claims("ada",
                Map.of("scope", "profile orders:read")))).statusCode());
    }

    @Test
    void aClaimsHeaderIsNeverTheClientsOwnEvenWhenTheTokenLacksTheClaim() throws Exception {
        start();
        String token = TOKENS.es256(TestTokens.claims("ada", Map.of()));

        HttpResponse<String> r = get("/px/users/1", "Authorization", "Bearer " + token, "X-User", "root",
                "X-Email", "boss@example.com", "X-Other", "kept");

        assertEquals(200, r.statusCode(), r.body());
        ApiUpstream.Request seen = api.requests().getLast();
        assertEquals("/users/1", seen.target());
        assertEquals("ada", seen.headers().get("x-user"), "the token's sub, not the client's X-User");
        assertNull(seen.headers().get("x-email"), "the token has no email, and the client's own X-Email is not passed on"
                + " in its place");
        assertEquals("kept", seen.headers().get("x-other"), "other headers are proxied as usual");

        int before = api.requests().size();
        HttpResponse<String> two = get("/px/users/1", "Authorization", "Bearer " + token, "Authorization", "Basic cm9vdDpyb290");
        assertEquals(401, two.statusCode(), "a second Authorization header would reach the upstream unchecked");
        assertTrue(two.body().contains("send one Authorization header, not 2"), two.body());
        assertEquals(before, api.requests().size());
    }

    @Test
    void aRateLimitTakesOneTokenPerAuthenticatedRequestAndSaysWhenToComeBack() throws Exception {
        start();
        for (int i = 0; i < 5; i++) {
            assertEquals(401, get("/limited", "X-Api-Key", "key-guess").statusCode());
        }
        for (int i = 2; i >= 0; i--) {
            HttpResponse<String> r = get("/limited", "X-Api-Key", "key-mobile");
            assertEquals(200, r.statusCode(), "a refused key took nothing from the bucket");
            assertEquals("3", r.headers().firstValue("RateLimit-Limit").orElse(""));
            assertEquals(String.valueOf(i), r.headers().firstValue("RateLimit-Remaining").orElse(""));
        }
        HttpResponse<String> limited = get("/limited", "X-Api-Key", "key-mobile");
        assertEquals(429, limited.statusCode());
        assertEquals("100", limited.headers().firstValue("Retry-After").orElse(""), "one token every 100 s");
        assertEquals("0", limited.headers().firstValue("RateLimit-Remaining").orElse(""));
        assertTrue(limited.body().contains("\"error\":\"rate_limited\""), limited.body());
        assertEquals(200, get("/limited", "X-Api-Key", "key-billing").statusCode(), "another key, another bucket");
        assertEquals(4, api.requests().size(), "three for one key, one for the other, and nothing refused");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void theEdgeDecidesBeforeAdmission(String mode) throws Exception {
        start("--max-inflight", "1", "--threads", mode, "--pool", "4");
        CompletableFuture<HttpResponse<String>> holding = Background.supply(() -> client.get("/slow"));
        api.await("start /slow");
        assertEquals(401, get("/keyed").statusCode(), "refused at the edge, not shed");
        assertEquals(503, get("/limited-ip").statusCode(), "within its rate: past the edge, then shed by admission");
        assertEquals(429, get("/limited-ip").statusCode(), "over its rate: refused at the edge, before admission");
        assertEquals(503, get("/keyed", "X-Api-Key", "key-mobile").statusCode(), "past the edge, shed by admission");
        api.release("/slow");
        assertEquals(200, holding.get().statusCode());
        assertFalse(api.requests().stream().anyMatch(r -> r.target().equals("/data")), "nothing refused reached the upstream");
    }
}
