package io.loomgate.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.RedisOptions;
import io.loomgate.testing.FakeRedis;
import io.loomgate.testing.RedisServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client against a real redis-server, and against fake ones that answer badly. */
class RedisClientTest {

    @TempDir
    Path dir;

    private static RedisOptions options(int port, Duration timeout) {
        return new RedisOptions(false, "127.0.0.1", port, Optional.empty(), Optional.empty(), 0, timeout, Optional.empty());
    }

    private static final LuaScript ECHO = LuaScript.of("return ARGV[1]");

    @Test
    void runsAScriptByDigestAndSendsItWholeAfterAScriptFlush() throws Exception {
        try (RedisServer redis = RedisServer.start(dir); RedisClient c = new RedisClient(options(redis.port(), Duration.ofSeconds(2)),
                Optional.empty())) {
            assertEquals("hi", ((Reply.Bulk) c.eval(ECHO, List.of(), List.of("hi"))).text());
            assertEquals(1, c.stats().scriptLoads(), "the first EVALSHA met NOSCRIPT");
            assertEquals("again", ((Reply.Bulk) c.eval(ECHO, List.of(), List.of("again"))).text());
            assertEquals(1, c.stats().scriptLoads(), "then Redis had it");
            redis.cli("SCRIPT", "FLUSH");
            assertEquals("after", ((Reply.Bulk) c.eval(ECHO, List.of(), List.of("after"))).text());
            assertEquals(2, c.stats().scriptLoads());
            assertEquals(java.util.Map.of(), failuresOf(c));
        }
    }

    private static java.util.Map<String, Long> failuresOf(RedisClient c) {
        java.util.Map<String, Long> f = new java.util.TreeMap<>(c.stats().failures());
        f.values().removeIf(v -> v == 0);
        return f;
    }


    @Test
    void logsInAsAnAclUserIntoItsDatabase() throws Exception {
        try (RedisServer redis = RedisServer.start(dir, "--requirepass", "default-secret")) {
            redis.cli("ACL", "SETUSER", "limits", "on", ">s3cret", "~loomgate:*", "+@all");
            RedisOptions o = new RedisOptions(false, "127.0.0.1", redis.port(), Optional.of("limits"), Optional.of("s3cret"), 3,
                    Duration.ofSeconds(2), Optional.empty());
            try (RedisClient c = new RedisClient(o, Optional.empty())) {
                c.call("SET", "loomgate:x", "1");
                assertEquals("1", redis.cli("-n", "3", "GET", "loomgate:x"), "in database 3");
            }
            RedisOptions wrong = new RedisOptions(false, "127.0.0.1", redis.port(), Optional.of("limits"), Optional.of("nope"), 0,
                    Duration.ofMillis(300), Optional.empty());
            try (RedisClient c = new RedisClient(wrong, Optional.empty())) {
                StoreException e = assertThrows(StoreException.class, () -> c.call("PING"));
                assertTrue(!e.getMessage().contains("nope"), "the password is never shown: " + e.getMessage());
            }
        }
    }

    @Test
    void aMalformedReplyIsAFailureAndItsConnectionIsClosed() throws Exception {
        try (FakeRedis fake = new FakeRedis(c -> "+OK\n".getBytes(StandardCharsets.US_ASCII));
             RedisClient c = new RedisClient(options(fake.port(), Duration.ofSeconds(2)), Optional.empty())) {
            StoreException e = assertThrows(StoreException.class, () -> c.call("PING"));
            assertEquals(StoreException.Kind.MALFORMED, e.kind());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> fake.events().contains("closed"));
            assertEquals(StoreException.Kind.MALFORMED, assertThrows(StoreException.class, () -> c.call("PING")).kind());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> fake.events().stream().filter("closed"::equals).count() == 2);
            assertTrue(fake.events().stream().filter(x -> x.startsWith("closed after ")).allMatch(x -> x.equals("closed after 1")),
                    "each connection is closed after its one malformed reply: " + fake.events());
        }
    }

    @Test
    void anOversizedReplyIsRefusedWithoutReadingIt() throws Exception {
        try (FakeRedis fake = new FakeRedis(c -> ("$" + (10 * 1024 * 1024) + "\r\n").getBytes(StandardCharsets.US_ASCII));
             RedisClient c = new RedisClient(options(fake.port(), Duration.ofSeconds(2)), Optional.empty())) {
            StoreException e = assertThrows(StoreException.class, () -> c.call("GET", "k"));
            assertEquals(StoreException.Kind.MALFORMED, e.kind());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> fake.events().contains("closed"));
        }
    }

    @Test
    void aSilentRedisCostsNoMoreThanTheDeadlineAndOpensTheBreaker() throws Exception {
        try (FakeRedis fake = new FakeRedis(c -> new byte[0]);   // reads, never answers
             RedisClient c = new RedisClient(options(fake.port(), Duration.ofMillis(50)), Optional.empty())) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {   // the first calls may find no connection open yet
                try {
                    c.call("PING");
                } catch (StoreException e) {
                    return e.kind() == StoreException.Kind.TIMEOUT;
                }
                return false;
            });
            // Checked at the first timeout, 50 ms into the command's wait: a connection is closed only
            // once a command on it has waited a second (RedisClient.STALLED), and the breaker below
            // needs a second of failures to open, so by then the stalled rule may have closed it.
            assertTrue(fake.events().stream().noneMatch("closed"::equals), "a command past its deadline leaves its connection in use");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                try {
                    c.call("PING");
                } catch (StoreException e) {
                    return c.stats().state().equals("open");
                }
                return false;
            });
            StoreException e = assertThrows(StoreException.class, () -> c.call("PING"));
            assertEquals(StoreException.Kind.OPEN, e.kind(), "open: refused before anything is sent");
            assertTrue(c.stats().failures().get("timeout") >= 1, c.stats().toString());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {   // the breaker's probe, a second on, finds it stalled
                try {
                    c.call("PING");
                } catch (StoreException expected) {
                    // open, or the probe timed out
                }
                return fake.events().contains("closed");
            });
        }
    }

    @Test
    void aRedisThatComesBackIsAskedAgainAndTheBreakerCloses() throws Exception {
        try (RedisServer redis = RedisServer.start(dir); RedisClient c = new RedisClient(options(redis.port(), Duration.ofMillis(200)),
                Optional.empty())) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> c.call("PING") != null);
            redis.kill();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                try {
                    c.call("PING");
                    return false;
                } catch (StoreException e) {
                    return c.stats().state().equals("open");
                }
            });
            redis.begin();
            Awaitility.await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() -> c.call("PING") != null);
            assertEquals("closed", c.stats().state());
        }
    }
}
