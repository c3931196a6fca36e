package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ChildProcess;
import io.loomgate.testing.TestClient;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar as a user runs it: exit codes, the one stdout line, signals. */
class MainIT {

    static final Pattern LISTENING = Pattern.compile("loomgate listening on (http://\\S+) \\((threads=.*)\\)");
    static final Path HOME = Path.of(System.getProperty("loomgate.home", "."));
    static final String JAR = System.getProperty("loomgate.jar", "target/loomgate.jar");

    static ChildProcess jar(String... args) {
        List<String> cmd = new ArrayList<>(List.of("-jar", JAR));
        cmd.addAll(List.of(args));
        return ChildProcess.start(ChildProcess.java(cmd.toArray(String[]::new)), Map.of(), HOME);
    }

    @Test
    void badFlagsExitTwoWithOneLineAndNoStackTrace() throws Exception {
        try (ChildProcess p = jar("--threads", "bogus")) {
            assertEquals(2, p.awaitExit(Duration.ofSeconds(20)));
            assertEquals(List.of("loomgate: --threads must be 'virtual' or 'platform', got 'bogus'"), p.stderr());
            assertEquals(List.of(), p.stdout());
        }
        try (ChildProcess p = ChildProcess.start(ChildProcess.java("-jar", JAR), Map.of("LOOMGATE_PORT", "http"), HOME)) {
            assertEquals(2, p.awaitExit(Duration.ofSeconds(20)));
            assertEquals(List.of("loomgate: LOOMGATE_PORT must be an integer in 0..65535, got 'http'"), p.stderr());
        }
    }

    @Test
    void helpAndVersionExitZero() throws Exception {
        try (ChildProcess p = jar("--help")) {
            assertEquals(0, p.awaitExit(Duration.ofSeconds(20)));
            assertTrue(String.join("\n", p.stdout()).contains("--shutdown-grace DURATION"), p.stdout().toString());
        }
        try (ChildProcess p = jar("--version")) {
            assertEquals(0, p.awaitExit(Duration.ofSeconds(20)));
            assertTrue(p.stdout().getFirst().matches("loomgate \\d+\\.\\d+\\.\\d+ \\(Java 25.*\\)"), p.stdout().toString());
        }
    }

    @Test
    void aBadRouteFileExitsTwoWithOneLineNamingTheFileAndThePath(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("routes.json");
        Files.writeString(file, """
                {"upstreams": [{"id": "db", "kind": "simulated", "service": "db"}],
                 "routes": [{"path": "/a", "policy": "all", "upstreams": ["db"]},
                            {"path": "/b", "policy": "all", "upstreams": ["db"]},
                            {"path": "/c", "policy": "al", "upstreams": ["db"]}]}
                """);
        try (ChildProcess p = jar("--port", "0", "--routes", file.toString())) {
            assertEquals(2, p.awaitExit(Duration.ofSeconds(20)));
            assertEquals(List.of("loomgate: " + file + ": routes[2].policy must be one of single, all, any, fallback, quorum, hedge, proxy, compose; got 'al'"),
                    p.stderr());
            assertEquals(List.of(), p.stdout());
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{1}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            {"path": "/a", "policy": "all", "upstreams": ["db"], "colour": "red"} | routes[0].colour is not a field of a route (its fields: path, policy, engine, executor, upstreams, timeout, status, answer, clientKnobs, methods, fallbacks, quorum, hedge, auth, rateLimit, preAuthLimit, cors, compress, host, match)
            {"path": "/a", "policy": "all", "upstreams": ["nope"]}                | routes[0].upstreams[0] must be a declared upstream (db); got 'nope'
            {"path": "/health", "policy": "all", "upstreams": ["db"]}             | routes[0].path is taken by an operator endpoint (/, /dashboard, /debug/threads, /health, /livez, /metrics, /readyz, /debug/...); got '/health'
            {"path": "/a", "policy": "all", "upstreams": ["db"], "timeout": "2x"} | routes[0].timeout must be a duration from 1ms to 1h such as 300ms, 1.5s, 2m or 1h; got '2x'
            {"path": "/a", "policy": "first", "upstreams": ["db"]}                | routes[0].policy must be one of single, all, any, fallback, quorum, hedge, proxy, compose; got 'first'
            {"path": "/a", "policy": "compose", "calls": {"x": {"upstream": "db", "forEach": "y.list"}, "y": {"upstream": "db", "forEach": "x.list"}}} | routes[0].calls has a cycle: x -> y -> x
            {"path": "/a", "policy": "all", "upstreams": ["db"], "rateLimit": {"perSecond": 5, "by": "apiKey"}} | routes[0].rateLimit.by apiKey needs the route to require one ("auth": "apiKey"); got 'apiKey'
            """)
    void everyKindOfBadRouteFileExitsTwo(String route, String problem, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, "{\"upstreams\": [{\"id\": \"db\", \"kind\": \"simulated\", \"service\": \"db\"}],"
                + " \"routes\": [" + route + "]}");
        try (ChildProcess p = ChildProcess.start(ChildProcess.java("-jar", JAR, "--port", "0"),
                Map.of("LOOMGATE_ROUTES", file.toString()), HOME)) {
            assertEquals(2, p.awaitExit(Duration.ofSeconds(20)));
            assertEquals(List.of("loomgate: " + file + ": " + problem), p.stderr());
        }
        String duplicate = "{\"upstreams\": [{\"id\": \"db\", \"kind\": \"simulated\", \"service\": \"db\"}],"
                + " \"routes\": [" + route.replace("\"/health\"", "\"/a\"") + ", {\"path\": \"/a\", \"policy\": \"all\", \"upstreams\": [\"db\"]}]}";
        Files.writeString(file, duplicate);
        try (ChildProcess p = jar("--port", "0", "--routes", file.toString())) {
            assertEquals(2, p.awaitExit(Duration.ofSeconds(20)), "a second route on the same path");
            assertEquals(1, p.stderr().size(), p.stderr().toString());
        }
    }

    @Test
    void anEdgeThatCannotServeExitsTwoWithOneLine(@TempDir Path dir) throws Exception {
        Path routes = dir.resolve("keys.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "db", "kind": "simulated", "service": "db"}],
                 "routes": [{"path": "/a", "policy": "all", "upstreams": ["db"], "auth": "apiKey"}]}""");
        try (ChildProcess p = jar("--port", "0", "--routes", routes.toString())) {
            assertEquals(2, p.awaitExit(Duration.ofSeconds(20)));
            assertEquals(List.of("loomgate: " + routes + ": route /a requires an API key (\"auth\": \"apiKey\"), but no --api-keys"
                    + " file was given"), p.stderr());
        }
        Path notACertificate = dir.resolve("cert.pem");
        Files.writeString(notACertificate, "hello");
        try (ChildProcess p = jar("--port", "0", "--tls-cert", notACertificate.toString(), "--tls-key", notACertificate.toString())) {
            assertEquals(2, p.awaitExit(Duration.ofSeconds(20)));
            assertEquals(List.of("loomgate: " + notACertificate + ": holds no PEM certificate (-----BEGIN CERTIFICATE-----)"),
                    p.stderr());
            assertEquals(List.of(), p.stdout(), "nothing was bound");
        }
    }

    @Test
    void checkExitsZeroForGoodFilesAndTwoWithTheErrors(@TempDir Path dir) throws Exception {
        try (ChildProcess p = jar("check", "examples/compose.json", "examples/proxy.json")) {
            assertEquals(0, p.awaitExit(Duration.ofSeconds(20)), p.stderr().toString());
            assertTrue(p.stdout().contains("examples/proxy.json: ok, 1 upstream, 1 route"), p.stdout().toString());
            assertTrue(p.stdout().contains("    critical path: user -> team"), p.stdout().toString());
        }
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, """
                {"upstreams": [{"id": "api", "kind": "http", "url": "http://${LOOMGATE_TEST_UNSET_HOST}/"}],
                 "routes": [{"path": "/a", "policy": "single", "upstreams": ["api"]}]}""");
        try (ChildProcess p = jar("check", bad.toString())) {
            assertEquals(2, p.awaitExit(Duration.ofSeconds(20)));
            assertEquals(List.of("loomgate: " + bad + ": upstreams[0].url uses ${LOOMGATE_TEST_UNSET_HOST}, which is not set in"
                    + " the environment (set it, or give a default: ${LOOMGATE_TEST_UNSET_HOST:-value})"), p.stderr());
        }
    }

    @Test
    void printRoutesPrintsTheEffectiveTableAsJsonAndExitsZero() throws Exception {
        try (ChildProcess p = jar("--print-routes", "--latency", "db=120ms")) {
            assertEquals(0, p.awaitExit(Duration.ofSeconds(20)));
            Map<String, Object> table = io.loomgate.json.JsonParser.parseObject(String.join("\n", p.stdout()));
            List<?> upstreams = (List<?>) table.get("upstreams");
            assertEquals(Map.of("id", "db", "kind", "simulated", "service", "db", "latency", "120ms", "failureRate", 0.0),
                    upstreams.getFirst(), "the flag's latency, not the file's 300ms");
            assertEquals(10, ((List<?>) table.get("routes")).size());
            assertEquals(List.of(), p.stderr());
        }
    }

    @Test
    void aPortInUseExitsOneWithAClearMessage() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
             ChildProcess p = jar("--port", String.valueOf(taken.getLocalPort()))) {
            assertEquals(1, p.awaitExit(Duration.ofSeconds(20)));
            String err = String.join("\n", p.stderr());
            assertTrue(err.startsWith("loomgate: cannot listen on 127.0.0.1:" + taken.getLocalPort()), err);
            assertFalse(err.contains("\tat "), err);
        }
    }

    @Test
    void sighupReloadsTheRouteFileAndABadOneIsLoggedInOneLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("routes.json");
        String routes = """
                {"upstreams": [{"id": "db", "kind": "simulated", "service": "db", "latency": "1ms"}],
                 "routes": [{"path": "/a", "policy": "all", "upstreams": ["db"]}]}""";
        Files.writeString(file, routes);
        // A suite run under nohup passes SIGHUP on ignored, and an ignored signal stays ignored in the
        // child: env --default-signal gives the jar the disposition it has under a supervisor.
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=HUP"));
        command.addAll(ChildProcess.java("-jar", JAR, "--port", "0", "--routes", file.toString()));
        try (ChildProcess p = ChildProcess.start(command, Map.of(), HOME)) {
            Matcher m = LISTENING.matcher(p.awaitStdout(l -> LISTENING.matcher(l).matches(), Duration.ofSeconds(20)));
            assertTrue(m.matches());
            try (TestClient client = new TestClient(URI.create(m.group(1)))) {
                assertEquals(404, client.get("/b").statusCode());
                Files.writeString(file, routes.replace("\"/a\"", "\"/b\""));
                hangUp(p);
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> client.get("/b").statusCode() == 200);
                assertTrue(p.stderr().stream().anyMatch(l -> l.contains("reloaded " + file + " (SIGHUP): 1 routes, 1 upstreams")),
                        p.stderr().toString());

                Files.writeString(file, "{");
                hangUp(p);
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> p.stderr().stream()
                        .anyMatch(l -> l.contains("reload (SIGHUP) refused, still serving the configuration loaded at")
                                && l.contains(file + ": not valid JSON")));
                assertEquals(200, client.get("/b").statusCode(), "still serving");
            }
        }
    }

    @Test
    void sigusr1ReopensTheAccessLogFileAfterARotation(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("access.log");
        try (ChildProcess p = jar("--port", "0", "--access-log", "json", "--access-log-file", log.toString())) {
            Matcher m = LISTENING.matcher(p.awaitStdout(l -> LISTENING.matcher(l).matches(), Duration.ofSeconds(20)));
            assertTrue(m.matches());
            try (TestClient client = new TestClient(URI.create(m.group(1)))) {
                client.get("/health");
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                        .until(() -> Files.exists(log) && Files.readString(log).contains("\"path\":\"/health\""));
                Files.move(log, dir.resolve("access.log.1"));
                assertEquals(0, new ProcessBuilder("kill", "-USR1", String.valueOf(p.pid())).start().waitFor());
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                    client.get("/livez");
                    return Files.exists(log) && Files.readString(log).contains("\"path\":\"/livez\"");
                });
                assertTrue(Files.readString(dir.resolve("access.log.1")).contains("\"path\":\"/health\""));
                assertEquals(1, p.stdout().size(), "JSON lines went to the file, not stdout: " + p.stdout());
            }
        }
    }

    private static void hangUp(ChildProcess p) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-HUP", String.valueOf(p.pid())).start().waitFor());
    }

    @Test
    void oneProcessorGetsTwoCarriersUnlessTheOperatorSaysOtherwise() throws Exception {
        assertEquals(2L, carriers("-XX:ActiveProcessorCount=1"));
        assertEquals(1L, carriers("-XX:ActiveProcessorCount=1", "-D" + CarrierDefaults.PARALLELISM + "=1"));
        assertEquals(3L, carriers("-XX:ActiveProcessorCount=3"));
    }

    /** The scheduler's parallelism /metrics reports, in a jar started with {@code jvmOptions}. */
    private static long carriers(String... jvmOptions) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(jvmOptions));
        cmd.addAll(List.of("-jar", JAR, "--port", "0"));
        try (ChildProcess p = ChildProcess.start(ChildProcess.java(cmd.toArray(String[]::new)), Map.of(), HOME)) {
            Matcher m = LISTENING.matcher(p.awaitStdout(l -> LISTENING.matcher(l).matches(), Duration.ofSeconds(20)));
            assertTrue(m.matches());
            try (TestClient client = new TestClient(URI.create(m.group(1)))) {
                Map<?, ?> threads = (Map<?, ?>) client.getJson("/metrics?format=json").get("virtualThreads");
                return ((Number) threads.get("parallelism")).longValue();
            }
        }
    }

    @Test
    void sigtermDrainsAndExitsZero() throws Exception {
        try (ChildProcess p = jar("--port", "0")) {
            Matcher m = LISTENING.matcher(p.awaitStdout(l -> LISTENING.matcher(l).matches(), Duration.ofSeconds(20)));
            assertTrue(m.matches());
            assertEquals("threads=virtual, server=loomgate", m.group(2));
            try (TestClient client = new TestClient(URI.create(m.group(1)))) {
                assertEquals(200, client.get("/health").statusCode());
            }
            p.terminate();
            assertEquals(0, p.awaitExit(Duration.ofSeconds(15)));
            assertEquals(1, p.stdout().size(), "exactly one line on stdout: " + p.stdout());
            assertTrue(p.stderr().stream().anyMatch(l -> l.matches(".*stopped: served 1 requests, 0 cut off after the grace period; not ready at once, \\d+ ms drain delay.*")),
                    p.stderr().toString());
        }
    }
}
