package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loomgate check}: the start's checks without a socket bound or an upstream called. */
class CheckCommandTest {

    @TempDir
    Path dir;

    private record Outcome(int status, String out, String err) {
    }

    private static Outcome check(List<String> args) throws Exception {
        var check = (CommandLine.Check) CommandLine.parse(args, Map.of());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = CheckCommand.run(check.files(), check.config(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aGoodFileGivesItsPlanInShortWithTheCallsInOrderAndTheCriticalPath() throws Exception {
        Path file = Files.writeString(dir.resolve("routes.json"), """
                {"upstreams": [{"id": "users", "kind": "simulated", "service": "db", "latency": "50ms"},
                               {"id": "slow", "kind": "simulated", "service": "db", "latency": "200ms"},
                               {"id": "fast", "kind": "simulated", "service": "cache", "latency": "5ms"}],
                 "routes": [{"path": "/u/{id}", "policy": "compose", "timeout": "1s", "calls": {
                               "a": {"upstream": "fast"},
                               "b": {"upstream": "fast", "forEach": "a.items"},
                               "c": {"upstream": "users"},
                               "d": {"upstream": "slow", "optional": true, "fallback": 0}}},
                            {"path": "/both", "policy": "all", "upstreams": ["users", "fast"]}]}""");
        Outcome o = check(List.of("check", file.toString()));
        assertEquals(0, o.status(), o.err());
        assertEquals("", o.err());
        assertEquals(file + ": ok, 3 upstreams, 2 routes\n"
                + "  upstream users (simulated, latency 50ms)\n"
                + "  upstream slow (simulated, latency 200ms)\n"
                + "  upstream fast (simulated, latency 5ms)\n"
                + "  route GET /u/{id}: compose, 4 calls, timeout 1s\n"
                + "    calls, in the order they can start:\n"
                + "      a on fast\n"
                + "      b on fast, once per a.items, after a\n"
                + "      c on users\n"
                + "      d on slow, optional\n"
                + "    critical path: d\n"
                + "  route GET /both: all of users, fast\n", o.out());
    }

    @Test
    void theCriticalPathIsTheLongestChainByDeclaredLatencyThenByCalls() throws Exception {
        Path file = Files.writeString(dir.resolve("routes.json"), """
                {"upstreams": [{"id": "api", "kind": "http", "url": "http://127.0.0.1:1/"}],
                 "routes": [{"path": "/u/{id}", "policy": "compose", "calls": {
                               "user": {"upstream": "api", "path": "/users/{id}"},
                               "team": {"upstream": "api", "path": "/teams/{user.teamId}"},
                               "lead": {"upstream": "api", "path": "/people/{team.lead}"},
                               "news": {"upstream": "api", "path": "/news"}}}]}""");
        Outcome o = check(List.of("check", file.toString()));
        assertTrue(o.out().contains("    critical path: user -> team -> lead\n"), o.out());
    }

    @Test
    void everyFileIsCheckedAndABadOneGivesTheStartsOneLineAndExitTwo() throws Exception {
        Path good = Files.writeString(dir.resolve("good.json"), """
                {"upstreams": [{"id": "db", "kind": "simulated", "service": "db"}],
                 "routes": [{"path": "/a", "policy": "all", "upstreams": ["db"]}]}""");
        Path bad = Files.writeString(dir.resolve("bad.json"), """
                {"upstreams": [{"id": "db", "kind": "http", "url": "http://127.0.0.1:99999/"}],
                 "routes": [{"path": "/a", "policy": "all", "upstreams": ["db"]}]}""");
        Outcome o = check(List.of("check", bad.toString(), good.toString(), dir.resolve("missing.json").toString()));
        assertEquals(2, o.status());
        assertEquals(List.of("loomgate: " + bad + ": upstreams[0].url has port 99999; a port is 1 to 65535; got 'http://127.0.0.1:99999/'",
                "loomgate: " + dir.resolve("missing.json") + ": cannot read the route file: " + dir.resolve("missing.json")),
                o.err().lines().toList());
        assertTrue(o.out().startsWith(good + ": ok, 1 upstream, 1 route\n"), o.out());
    }

    @Test
    void aSharedLimitNeedsRedisAndIsCheckedWithoutConnecting() throws Exception {
        Path file = Files.writeString(dir.resolve("shared.json"), """
                {"upstreams": [{"id": "db", "kind": "simulated", "service": "db"}],
                 "routes": [{"path": "/a", "policy": "all", "upstreams": ["db"],
                             "rateLimit": {"perSecond": 10, "shared": true, "onStoreError": "deny"}}]}""");
        Outcome without = check(List.of("check", file.toString()));
        assertEquals(2, without.status());
        assertEquals(List.of("loomgate: " + file + ": route /a shares its rate limit (\"shared\": true), which needs --redis URL: the Redis"
                + " the fleet keeps its limits on"), without.err().lines().toList());
        try (ServerSocket redis = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            redis.setSoTimeout(300);
            Outcome with = check(List.of("check", file.toString(), "--redis", "redis://127.0.0.1:" + redis.getLocalPort()));
            assertEquals(0, with.status(), with.err());
            assertThrows(java.net.SocketTimeoutException.class, redis::accept, "check connects to nothing");
        }
    }

    @Test
    void theFlagsOfAStartApplyAndNothingIsBoundOrCalled() throws Exception {
        try (ServerSocket upstream = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Path file = Files.writeString(dir.resolve("routes.json"), """
                    {"upstreams": [{"id": "api", "kind": "http", "url": "http://127.0.0.1:PORT/"}],
                     "routes": [{"path": "/a", "policy": "single", "upstreams": ["api"], "timeout": "5s"}]}"""
                    .replace("PORT", String.valueOf(upstream.getLocalPort())));
            Outcome ok = check(List.of("check", file.toString(), "--port", String.valueOf(taken.getLocalPort())));
            assertEquals(0, ok.status(), "the taken port is not bound: " + ok.err());
            Outcome tooLong = check(List.of("check", file.toString(), "--max-timeout", "2s"));
            assertEquals(2, tooLong.status());
            assertEquals("loomgate: " + file + ": routes[0].timeout must not exceed --max-timeout (2s); got '5s'\n", tooLong.err());
            upstream.setSoTimeout(200);
            try {
                upstream.accept().close();
                throw new AssertionError("check connected to the upstream");
            } catch (SocketTimeoutException expected) {
                // nobody called
            }
        }
    }
}
