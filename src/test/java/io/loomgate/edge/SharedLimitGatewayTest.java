package io.loomgate.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.UsageException;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FakeRedis;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.LogCapture;
import io.loomgate.testing.PrometheusText;
import io.loomgate.testing.RedisServer;
import io.loomgate.testing.TestCertificates;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rate limits shared on a real redis-server: two loomgates keep one limit; when Redis is stopped,
 * slowed or forgets the script, every request is still answered within the store's deadline, as
 * the route's onStoreError says, and sharing resumes on its own.
 */
class SharedLimitGatewayTest {

    @TempDir
    Path dir;
    private ApiUpstream api;
    private RedisServer redis;
    private final List<FileGate> gates = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        api = ApiUpstream.start().answer("/data", "{\"ok\":true}");
        redis = RedisServer.start(Files.createDirectories(dir.resolve("redis")));
    }

    @AfterEach
    void stop() throws Exception {
        gates.forEach(FileGate::close);
        redis.close();
        api.close();
    }

    private FileGate gate(String limit, String redisUrl, String timeout, String... more) throws Exception {
        String upstream = "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/data\"}";
        List<String> flags = new ArrayList<>(List.of("--redis", redisUrl, "--redis-timeout", timeout));
        flags.addAll(List.of(more));
        FileGate g = FileGate.start(Files.createDirectories(dir.resolve("gate" + gates.size())), upstream, List.of(
                "{\"path\": \"/data\", \"policy\": \"single\", \"upstreams\": [\"api\"], \"answer\": \"value\", \"rateLimit\": " + limit + "}"),
                flags.toArray(String[]::new));
        gates.add(g);
        return g;
    }

    private static double metric(FileGate g, String name, Map<String, String> labels) {
        return PrometheusText.parse(g.client().get("/metrics?format=prometheus").body()).value(name, labels);
    }

    private static final Map<String, String> ROUTE = Map.of("limit", "rate_limit", "route", "/data");

    @Test
    void twoInstancesOnOneRedisKeepOneLimit() throws Exception {
        String limit = "{\"perSecond\": 100, \"burst\": 100, \"by\": \"ip\", \"shared\": true}";
        List<FileGate> two = List.of(gate(limit, redis.url(), "1s"), gate(limit, redis.url(), "1s"));
        AtomicInteger[] passed = {new AtomicInteger(), new AtomicInteger()};
        AtomicInteger refused = new AtomicInteger();
        long started = System.nanoTime();
        long end = started + Duration.ofSeconds(30).toNanos();   // a bound for a very slow machine; it stops well before
        List<Thread> senders = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            int which = i % 2;
            senders.add(Thread.ofVirtual().start(() -> {
                // Until the shared limit has refused a good many: however fast this machine sends.
                for (int n = 0; n < 5_000 && refused.get() < 200 && System.nanoTime() < end; n++) {
                    int status = two.get(which).client().get("/data").statusCode();
                    (status == 200 ? passed[which] : refused).incrementAndGet();
                }
            }));
        }
        for (Thread t : senders) {
            t.join();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        int total = passed[0].get() + passed[1].get();
        double expected = 100 + 100 * seconds;   // the burst, then the refill
        // Bounds no loaded machine misses: the limit was reached, and what passed is at most one
        // limit's worth for the time it took (two limits apart would pass twice that).
        assertTrue(refused.get() > 0, "the load reached the limit: " + refused + " refused");
        assertTrue(total >= 100, "the burst passed: " + total);
        assertTrue(total <= 1.1 * expected,
                total + " passed in " + seconds + " s, where one shared limit passes " + expected + " (two apart would pass twice that)");
        assertTrue(passed[0].get() > 0 && passed[1].get() > 0, "both instances took tokens: " + passed[0] + ", " + passed[1]);
        assertEquals(0, metric(two.get(0), "loomgate_limit_store_fallbacks_total", ROUTE) + metric(two.get(1),
                "loomgate_limit_store_fallbacks_total", ROUTE), "no request fell back");
        String keys = redis.cli("KEYS", "loomgate:rl:*");
        assertEquals(1, keys.lines().count(), "one bucket, a digest of the key: " + keys);
        long ttl = Long.parseLong(redis.cli("PTTL", keys.strip()));
        assertTrue(ttl > 0 && ttl <= 2_000, "it expires once it would be full again: " + ttl + " ms");
    }

    @Test
    void aSharedRefusalAnswersAsALocalOneDoes() throws Exception {
        FileGate g = gate("{\"perSecond\": 0.5, \"burst\": 2, \"shared\": true, \"onStoreError\": \"deny\"}", redis.url(), "2s");
        HttpResponse<String> first = g.client().get("/data");
        assertEquals(200, first.statusCode());
        assertEquals("2", first.headers().firstValue("RateLimit-Limit").orElse(""));
        assertEquals("1", first.headers().firstValue("RateLimit-Remaining").orElse(""));
        assertEquals(200, g.client().get("/data").statusCode());
        HttpResponse<String> refused = g.client().get("/data");
        assertEquals(429, refused.statusCode(), refused.body());
        assertEquals("0", refused.headers().firstValue("RateLimit-Remaining").orElse(""));
        assertEquals("2", refused.headers().firstValue("Retry-After").orElse(""), "a token comes back every 2 s");
        assertTrue(refused.body().contains("\"error\":\"rate_limited\""), refused.body());
        assertEquals(1, metric(g, "loomgate_limit_refused_total", ROUTE));
    }

    /**
     * Requests while Redis is away: each answered as {@code expect} says, by the route's
     * {@code onStoreError}, not left waiting (the store's deadline bounds the wait;
     * {@link #aSlowRedisCostsNoMoreThanTheDeadline} shows it on a Redis that hangs).
     */
    private static void answeredWithoutRedis(FileGate g, int expect) {
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> r = g.client().get("/data");
            assertEquals(expect, r.statusCode(), r.body());
        }
    }

    @Test
    void withRedisStoppedRequestsFallBackToTheLocalLimitAndSharingResumesWhenItIsBack() throws Exception {
        FileGate g = gate("{\"perSecond\": 1000, \"burst\": 1000, \"shared\": true}", redis.url(), "2s");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> g.client().get("/data").statusCode() == 200
                && metric(g, "loomgate_redis_commands_total", Map.of("result", "ok")) > 0);
        redis.kill();
        answeredWithoutRedis(g, 200);
        assertTrue(metric(g, "loomgate_limit_store_fallbacks_total", ROUTE) >= 20);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> g.client().get("/data").statusCode() == 200
                && metric(g, "loomgate_redis_up", Map.of()) == 0);   // the breaker opened: Redis is not asked per request
        redis.begin();
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> g.client().get("/data").statusCode() == 200
                && metric(g, "loomgate_redis_up", Map.of()) == 1);
        assertEquals(1, redis.cli("KEYS", "loomgate:rl:*").lines().count(), "the bucket is in Redis again");
    }

    @Test
    void aChangeOfRedisStateIsLoggedOnceAndTheAdminApiShowsIt() throws Exception {
        try (LogCapture log = LogCapture.of("loomgate")) {
            // A deadline no loaded machine misses: Redis stopped is refused at once, and a command that
            // merely ran late would log a failure this test does not cause.
            FileGate g = gate("{\"perSecond\": 1000, \"burst\": 1000, \"shared\": true}", redis.url(), "2s", "--admin-port", "0");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> g.client().get("/data").statusCode() == 200
                    && adminStore(g).contains("\"state\":\"closed\"") && adminStore(g).contains("\"connections\":"));
            redis.kill();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> g.client().get("/data").statusCode() == 200
                    && adminStore(g).contains("\"state\":\"open\""));
            for (int i = 0; i < 3; i++) {   // probes a second apart, each failing: no more lines
                Thread.sleep(1_100);
                g.client().get("/data");
            }
            redis.begin();
            Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> g.client().get("/data").statusCode() == 200
                    && adminStore(g).contains("\"state\":\"closed\""));
            List<String> lines = log.lines().stream().filter(l -> l.contains("Redis at")).toList();
            assertEquals(2, lines.size(), "one line when it failed, one when it answered again: " + lines);
            assertTrue(lines.get(0).contains("is failing") && lines.get(1).contains("answers again"), lines.toString());
            assertTrue(adminStore(g).contains("\"url\":\"redis://127.0.0.1:" + redis.port() + "/0\""), adminStore(g));
        }
    }

    private static String adminStore(FileGate g) {
        try {
            return g.client().http().send(java.net.http.HttpRequest.newBuilder(g.gate().adminUri("/admin/store")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (java.io.IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aRedisThatAnswersGarbageIsAFallbackNotAnError() throws Exception {
        try (FakeRedis fake = new FakeRedis(command -> "*2\r\n:1\r\n$4\r\nlots\r\n".getBytes(StandardCharsets.US_ASCII))) {
            FileGate g = gate("{\"perSecond\": 1000, \"burst\": 1000, \"shared\": true}", fake.url(), "500ms");
            for (int i = 0; i < 5; i++) {
                assertEquals(200, g.client().get("/data").statusCode(), "not a number of tokens: the local bucket instead");
            }
            assertEquals(5, metric(g, "loomgate_limit_store_fallbacks_total", ROUTE));
        }
        try (FakeRedis fake = new FakeRedis(command -> ("$" + (100 * 1024 * 1024) + "\r\n").getBytes(StandardCharsets.US_ASCII))) {
            FileGate g = gate("{\"perSecond\": 1000, \"burst\": 1000, \"shared\": true}", fake.url(), "500ms");
            assertEquals(200, g.client().get("/data").statusCode(), "a 100 MB reply is never read");
            assertEquals(1, metric(g, "loomgate_redis_commands_total", Map.of("result", "malformed")));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> fake.events().contains("closed"));
        }
    }

    @Test
    void withRedisStoppedADenyingRouteAnswers503() throws Exception {
        FileGate g = gate("{\"perSecond\": 1000, \"burst\": 1000, \"shared\": true, \"onStoreError\": \"deny\"}", redis.url(), "2s");
        assertEquals(200, g.client().get("/data").statusCode(), "the first waits for the first connection, within the deadline");
        redis.kill();
        answeredWithoutRedis(g, 503);
        HttpResponse<String> r = g.client().get("/data");
        assertEquals("1", r.headers().firstValue("Retry-After").orElse(""));
        assertTrue(r.body().contains("rate_limit_unavailable"), r.body());
    }

    @Test
    void aSlowRedisCostsNoMoreThanTheDeadline() throws Exception {
        FileGate g = gate("{\"perSecond\": 1000, \"burst\": 1000, \"shared\": true}", redis.url(), "50ms");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> g.client().get("/data").statusCode() == 200
                && metric(g, "loomgate_redis_commands_total", Map.of("result", "ok")) > 0);   // Redis answers, before it sleeps
        Thread sleeper = Thread.ofVirtual().start(() -> redis.cli("DEBUG", "SLEEP", "3"));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
            g.client().get("/data");
            return metric(g, "loomgate_limit_store_fallbacks_total", ROUTE) > 0;
        });
        answeredWithoutRedis(g, 200);
        sleeper.join();
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> g.client().get("/data").statusCode() == 200
                && metric(g, "loomgate_redis_up", Map.of()) == 1);
    }

    @Test
    void aRedisThatForgotTheScriptIsSentItAgainAndNoRequestFails() throws Exception {
        FileGate g = gate("{\"perSecond\": 1000, \"burst\": 1000, \"shared\": true, \"onStoreError\": \"deny\"}", redis.url(), "1s");
        for (int i = 0; i < 5; i++) {
            assertEquals(200, g.client().get("/data").statusCode());
        }
        double loads = metric(g, "loomgate_redis_script_loads_total", Map.of());
        assertEquals("OK", redis.cli("SCRIPT", "FLUSH"));
        for (int i = 0; i < 5; i++) {
            assertEquals(200, g.client().get("/data").statusCode(), "deny would show any failure as a 503");
        }
        assertEquals(loads + 1, metric(g, "loomgate_redis_script_loads_total", Map.of()));
        assertEquals(0, metric(g, "loomgate_limit_store_fallbacks_total", ROUTE));
    }

    @Test
    void theAclUserTheDocsGiveIsEnough() throws Exception {
        try (RedisServer locked = RedisServer.start(Files.createDirectories(dir.resolve("acl")), "--requirepass", "admin-secret")) {
            assertEquals("OK", locked.cli("ACL", "SETUSER", "limits", "on", ">s3cret", "~loomgate:*", "+evalsha", "+eval", "+time",
                    "+hmget", "+hset", "+pexpire"));   // as docs/rate-limits.md gives it
            FileGate g = gate("{\"perSecond\": 1000, \"burst\": 1000, \"shared\": true, \"onStoreError\": \"deny\"}",
                    "redis://limits:s3cret@127.0.0.1:" + locked.port(), "2s");
            assertEquals(200, g.client().get("/data").statusCode());
            assertEquals(1, locked.cli("KEYS", "loomgate:rl:*").lines().count());
            String store = g.client().get("/metrics?format=json").body();
            assertTrue(store.contains("redis://limits@127.0.0.1:" + locked.port()) && !store.contains("s3cret"), "shown without the password");
        }
    }

    @Test
    void aSharedLimitWithoutRedisStopsTheStartWithOneLine() throws Exception {
        String upstream = "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/data\"}";
        UsageException e = assertThrows(UsageException.class, () -> FileGate.start(dir, upstream, List.of(
                "{\"path\": \"/data\", \"policy\": \"single\", \"upstreams\": [\"api\"], \"rateLimit\": {\"perSecond\": 5, \"shared\": true}}")));
        assertTrue(e.getMessage().contains("route /data") && e.getMessage().contains("--redis") && !e.getMessage().contains("\n"),
                e.getMessage());
    }

    @Test
    void sharesOverTlsCheckingTheCertificate() throws Exception {
        TestCertificates ca = TestCertificates.newCa("redis-ca");
        TestCertificates.Issued cert = ca.issue("redis", "dns:localhost,ip:127.0.0.1");
        try (RedisServer tls = RedisServer.startTls(Files.createDirectories(dir.resolve("tls")), cert)) {
            FileGate g = gate("{\"perSecond\": 1000, \"burst\": 1000, \"shared\": true, \"onStoreError\": \"deny\"}", tls.url(), "2s");
            assertEquals(503, g.client().get("/data").statusCode(), "without --redis-ca, only the JDK's CAs are trusted");
            gates.clear();
            g.close();
            FileGate trusting = FileGate.start(Files.createDirectories(dir.resolve("trusting")),
                    "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/data\"}", List.of(
                    "{\"path\": \"/data\", \"policy\": \"single\", \"upstreams\": [\"api\"], \"answer\": \"value\", \"rateLimit\": "
                            + "{\"perSecond\": 1000, \"burst\": 1000, \"shared\": true, \"onStoreError\": \"deny\"}}"),
                    "--redis", tls.url(), "--redis-timeout", "2s", "--redis-ca", cert.caPem().toString());
            gates.add(trusting);
            assertEquals(200, trusting.client().get("/data").statusCode());
            assertEquals(1, tls.cli("KEYS", "loomgate:rl:*").lines().count());
        }
    }
}
