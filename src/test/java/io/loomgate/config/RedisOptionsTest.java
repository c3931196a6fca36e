package io.loomgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code --redis}, {@code --redis-timeout} and {@code --redis-ca}, and that a password is never shown. */
class RedisOptionsTest {

    private static RedisOptions redis(Map<String, String> env, String... args) throws UsageException {
        return assertInstanceOf(CommandLine.Run.class, CommandLine.parse(List.of(args), env)).config().edge().redis().orElseThrow();
    }

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> CommandLine.parse(List.of(args), Map.of())).getMessage();
    }

    @Test
    void readsUserPasswordHostPortAndDatabase() throws UsageException {
        RedisOptions o = redis(Map.of(), "--redis", "rediss://limits:p%40ss@10.0.0.5:6380/2", "--redis-timeout", "20ms");
        assertEquals(new RedisOptions(true, "10.0.0.5", 6380, Optional.of("limits"), Optional.of("p@ss"), 2, Duration.ofMillis(20),
                Optional.empty()), o);
        assertEquals("rediss://limits@10.0.0.5:6380/2", o.display());
        assertFalse(o.toString().contains("p@ss"));
    }

    @Test
    void hasDefaultsAndTakesThePasswordFromTheEnvironment() throws UsageException {
        RedisOptions o = redis(Map.of(RedisOptions.PASSWORD_ENV, "from-env"), "--redis", "redis://127.0.0.1");
        assertEquals(6379, o.port());
        assertEquals(0, o.database());
        assertEquals(Duration.ofMillis(20), o.timeout());
        assertEquals(Optional.of("from-env"), o.password());
        assertFalse(o.tls());
    }

    @Test
    void refusesWhatIsNotARedisUrlWithoutEchoingIt() {
        String e = error("--redis", "http://user:hunter2@host:6379");
        assertTrue(e.contains("--redis must start with redis:// or rediss://"), e);
        assertFalse(e.contains("hunter2"), "a password is never echoed: " + e);
        assertTrue(error("--redis", "redis://h:6379/x").contains("database number"));
        assertTrue(error("--redis", "redis://h:6379/0?x=1").contains("no query"));
        assertTrue(error("--redis-ca", "pom.xml").contains("needs --redis"));
        assertTrue(error("--redis", "redis://h", "--redis-ca", "pom.xml").contains("is for rediss://"));
        assertTrue(error("--redis", "redis://h", "--redis-timeout", "0ms").contains("--redis-timeout"));
    }
}
