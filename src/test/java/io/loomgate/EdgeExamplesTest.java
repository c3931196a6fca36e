package io.loomgate;

import java.time.Duration;
import org.awaitility.Awaitility;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.api.Endpoints;
import io.loomgate.config.AddressRanges;
import io.loomgate.config.CommandLine;
import io.loomgate.config.Config;
import io.loomgate.demo.SimulatedKind;
import io.loomgate.tls.PemFiles;
import io.loomgate.json.JsonWriter;
import io.loomgate.plan.PlanReader;
import io.loomgate.plan.RouteKind;
import io.loomgate.testing.Background;
import io.loomgate.testing.TestCertificates;
import io.loomgate.testing.RedisServer;
import io.loomgate.testing.TestClient;
import io.loomgate.upstream.http.HttpKind;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edge examples the docs walk through, against the bundled backend: every example file reads,
 * the demo API keys and the demo JWT key (its committed public half) let their holders in, the
 * rate limit holds, CORS answers its origin, and retries make the flaky service whole.
 */
class EdgeExamplesTest {

    private static Loomgate backend;

    @BeforeAll
    static void start() throws Exception {
        Config config = ((CommandLine.Run) CommandLine.parse(List.of("backend", "--port", "0", "--seed", "1"), Map.of())).config();
        backend = Loomgate.start(config);
    }

    @AfterAll
    static void stop() {
        backend.close();
    }

    /** {@code examples/NAME}, copied beside the files it names and pointed at this test's backend. */
    private static Path example(Path dir, String name) throws Exception {
        Path examples = Files.createDirectories(dir.resolve("examples"));
        Files.createDirectories(examples.resolve("jwt"));
        Files.copy(MainIT.HOME.resolve("examples/jwt/jwks.json"), examples.resolve("jwt/jwks.json"));
        String text = Files.readString(MainIT.HOME.resolve("examples/" + name))
                .replace("127.0.0.1:9090", "127.0.0.1:" + backend.baseUri().getPort());
        Path file = examples.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    private static Loomgate gate(Path routes, String... flags) throws Exception {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--routes", routes.toString()));
        args.addAll(List.of(flags));
        return Loomgate.start(CommandLine.config(args.toArray(String[]::new)));
    }

    @Test
    void everyExampleFileReads(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("certs"));
        Files.copy(TestCertificates.ca().caPem(), dir.resolve("certs/ca.pem"));
        try (SimulatedKind simulated = new SimulatedKind(); HttpKind http = new HttpKind(AddressRanges.NONE);
             Stream<Path> files = Files.list(MainIT.HOME.resolve("examples"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                Path copy = example(dir.resolve(f.getFileName().toString().replace(".json", "")), f.getFileName().toString());
                Files.createDirectories(copy.getParent().resolveSibling("certs"));
                Files.copy(dir.resolve("certs/ca.pem"), copy.getParent().resolveSibling("certs/ca.pem"));
                PlanReader.read(copy, Modules.of(simulated, http), Endpoints.OPERATOR_PATHS);
            }
        }
    }

    /**
     * The AOT cache's training routes (scripts/lib/aot.sh) read, with their origin given as the script
     * gives it, and hold what the training is there for: a proxy, an HTTP fan-out and a composed route
     * calling the process itself. A file that stopped reading would leave scripts/run without a cache,
     * silently, as the script means it to when a cache cannot be made.
     */
    @Test
    void theAotTrainingRoutesReadAndCoverTheProxyTheClientAndComposition() throws Exception {
        try (SimulatedKind simulated = new SimulatedKind(); HttpKind http = new HttpKind(AddressRanges.NONE)) {
            var plan = PlanReader.read(MainIT.HOME.resolve("scripts/lib/aot-training.json"), Modules.of(simulated, http),
                    Endpoints.OPERATOR_PATHS, name -> name.equals("LOOMGATE_TRAIN_ORIGIN") ? "127.0.0.1:18555" : null);
            assertEquals(1, plan.routes().stream().filter(r -> r.kind() instanceof RouteKind.Proxy).count());
            assertEquals(1, plan.routes().stream().filter(r -> r.kind() instanceof RouteKind.Compose).count());
            assertTrue(plan.routes().stream().anyMatch(r -> r.kind() instanceof RouteKind.FanOut f
                    && f.upstreams().stream().allMatch(u -> u.value().startsWith("self"))), "an HTTP fan-out");
            assertEquals(3, plan.upstreams().stream().filter(u -> u.id().value().startsWith("self")
                    && u.settings().toString().contains("127.0.0.1:18555")).count(), plan.upstreams().toString());
        }
    }

    /** A token for examples/auth.json, signed with the committed demo key, as scripts/demo-token makes one. */
    private static String demoToken(String sub, String scope) throws Exception {
        PrivateKey key = PemFiles.privateKey(MainIT.HOME.resolve("examples/jwt/demo-private-key.pem"));
        Map<String, Object> claims = new java.util.LinkedHashMap<>(Map.of("iss", "https://demo.loomgate", "aud", "loomgate-demo",
                "sub", sub, "iat", Instant.now().getEpochSecond(), "exp", Instant.now().getEpochSecond() + 600));
        if (scope != null) {
            claims.put("scope", scope);
        }
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String head = b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"demo-1\"}".getBytes(StandardCharsets.UTF_8))
                + "." + b64.encodeToString(new JsonWriter(128).tree(claims).toString().getBytes(StandardCharsets.UTF_8));
        Signature s = Signature.getInstance("SHA256withRSA");
        s.initSign(key);
        s.update(head.getBytes(StandardCharsets.US_ASCII));
        return head + "." + b64.encodeToString(s.sign());
    }

    @Test
    void theAuthExampleLetsTheDemoKeyAndTheDemoTokenIn(@TempDir Path dir) throws Exception {
        try (Loomgate g = gate(example(dir, "auth.json"), "--api-keys", MainIT.HOME.resolve("examples/api-keys.txt").toString());
             TestClient c = new TestClient(g.baseUri())) {
            assertEquals(401, c.get("/data").statusCode());
            assertEquals("{\"data\":\"hello from the loomgate backend\"}", c.get("/data", "X-Api-Key", "demo-key-mobile").body());
            HttpResponse<String> me = c.get("/me", "Authorization", "Bearer " + demoToken("7", null));
            assertEquals(200, me.statusCode(), me.body());
            assertTrue(me.body().startsWith("{\"name\":\"Ada Lovelace\",\"orders\":[{\"sku\":\"a1\""), me.body());
            assertEquals(403, c.get("/me/orders", "Authorization", "Bearer " + demoToken("7", "profile")).statusCode());
            assertEquals(200, c.get("/me/orders", "Authorization", "Bearer " + demoToken("7", "profile orders:read")).statusCode());
        }
    }

    @Test
    void theSharedLimitExampleKeepsOneLimitForTwoInstances(@TempDir Path dir) throws Exception {
        Path routes = example(dir, "shared-limits.json");
        try (RedisServer redis = RedisServer.start(Files.createDirectories(dir.resolve("redis")));
             // The example's limit, with a Redis deadline no loaded machine misses: the default 20 ms is
             // a production choice, and past it the example allows the request (each instance alone).
             Loomgate a = gate(routes, "--redis", redis.url(), "--redis-timeout", "10s");
             Loomgate b = gate(routes, "--redis", redis.url(), "--redis-timeout", "10s");
             TestClient ca = new TestClient(a.baseUri()); TestClient cb = new TestClient(b.baseUri())) {
            for (TestClient c : List.of(ca, cb)) {   // each connects as its plan starts serving, before any request
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> c.get("/metrics?format=json").body()
                        .contains("\"connections\":2"));
            }
            burstThenFivePerSecond(List.of(ca, cb));
        }
    }

    @Test
    void theRateLimitExampleLetsTheBurstAndTheRateThrough(@TempDir Path dir) throws Exception {
        try (Loomgate g = gate(example(dir, "rate-limits.json"), "--api-keys", MainIT.HOME.resolve("examples/api-keys.txt").toString());
             TestClient c = new TestClient(g.baseUri())) {
            burstThenFivePerSecond(List.of(c));
        }
    }

    /** 30 requests at once, spread over {@code clients}: the burst of 10 passes, and no more than 5 a second after it. */
    private static void burstThenFivePerSecond(List<TestClient> clients) throws Exception {
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            TestClient c = clients.get(i % clients.size());
            all.add(Background.supply(() -> c.get("/data")));
        }
        long ok = 0;
        for (CompletableFuture<HttpResponse<String>> f : all) {
            ok += f.get().statusCode() == 200 ? 1 : 0;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(ok >= 10, "the burst of 10 went through: " + ok);
        assertTrue(ok <= 10 + Math.ceil(5 * seconds), ok + " passed in " + seconds + " s through " + clients.size()
                + " instance(s), over 10 + 5 a second");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theQuorumExampleAnswersAtTheSecondSuccessAndCancelsTheThird(@TempDir Path dir) throws Exception {
        try (Loomgate g = gate(example(dir, "quorum.json")); TestClient c = new TestClient(g.baseUri())) {
            HttpResponse<String> r = c.get("/two-of-three");
            assertEquals(200, r.statusCode(), r.body());
            Map<String, Object> body = io.loomgate.json.JsonParser.parseObject(r.body());
            assertEquals("ok", body.get("status"));
            List<String> states = ((List<Map<String, Object>>) body.get("results")).stream().map(p -> (String) p.get("state"))
                    .sorted().toList();
            assertEquals(List.of("cancelled", "success", "success"), states, r.body());
        }
    }

    @Test
    void theCorsExampleAnswersItsOriginsPreflight(@TempDir Path dir) throws Exception {
        try (Loomgate g = gate(example(dir, "cors.json")); TestClient c = new TestClient(g.baseUri())) {
            HttpRequest preflight = HttpRequest.newBuilder(g.uri("/users/7")).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                    .header("Origin", "http://localhost:3000").header("Access-Control-Request-Method", "GET")
                    .header("Access-Control-Request-Headers", "authorization").build();
            HttpResponse<String> r = c.http().send(preflight, HttpResponse.BodyHandlers.ofString());
            assertEquals(204, r.statusCode());
            assertEquals("http://localhost:3000", r.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
            HttpResponse<String> user = c.get("/users/7", "Origin", "http://localhost:3000");
            assertEquals("http://localhost:3000", user.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
            assertTrue(c.get("/internal/data", "Origin", "http://localhost:3000").headers()
                    .firstValue("Access-Control-Allow-Origin").isEmpty(), "a route's own cors replaces the file's");

            HttpResponse<String> unserved = c.http().send(HttpRequest.newBuilder(g.uri("/data"))
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).header("Origin", "http://localhost:3000")
                    .header("Access-Control-Request-Method", "DELETE").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(403, unserved.statusCode(), "a preflight for a method the route does not serve is refused");
            assertTrue(unserved.body().contains("method DELETE is not served here (allowed: GET, HEAD, OPTIONS)"), unserved.body());
            assertTrue(unserved.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
            HttpResponse<String> plain = c.http().send(HttpRequest.newBuilder(g.uri("/data"))
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(204, plain.statusCode(), "a plain OPTIONS is still answered with Allow");
            assertEquals("GET, HEAD, OPTIONS", plain.headers().firstValue("Allow").orElse(""));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theRetriesExampleMakesTheFlakyServiceAnswerMoreOften(@TempDir Path dir) throws Exception {
        try (Loomgate g = gate(example(dir, "retries.json")); TestClient c = new TestClient(g.baseUri())) {
            int ok = 0;
            for (int i = 0; i < 20; i++) {
                ok += c.get("/flaky").statusCode() == 200 ? 1 : 0;
            }
            Map<String, Object> retries = (Map<String, Object>) ((Map<String, Object>) c.getJson("/metrics?format=json")
                    .get("retries")).get("flaky");
            assertTrue((Long) retries.get("sent") >= 1, "the backend's 30% failures were retried: " + retries);
            assertTrue(ok >= 18, "with three tries, 20 requests mostly succeed: " + ok);
        }
    }
}
