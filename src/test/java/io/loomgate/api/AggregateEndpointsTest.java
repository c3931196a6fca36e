package io.loomgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.testing.BothModes;
import io.loomgate.testing.TestClient;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every endpoint's happy path and the response contract, in both thread modes, over real HTTP. */
class AggregateEndpointsTest {

    private static final Map<String, Object> FILE_VALUE = Map.of("lines", 10_000L, "bytes", 560_000L, "crc32", "a6e9ae3c");
    private static final Map<String, Object> COMPUTE_VALUE = Map.of("n", 50_000L, "primes", 5133L, "sum", 121_013_308L);

    private static BothModes gates;

    @BeforeAll
    static void start() throws Exception {
        gates = BothModes.start();
    }

    @AfterAll
    static void stop() {
        gates.close();
    }

    static Loomgate gate(String mode) {
        return gates.gate(mode);
    }

    /** endpoint, policy, expected service → state, expected service → value (where there is one). */
    static Stream<Arguments> endpoints() {
        return Stream.of(
                Arguments.of("/block", "single", List.of("db:success"), Map.of("db", "DB call completed")),
                Arguments.of("/file", "single", List.of("file:success"), Map.of("file", FILE_VALUE)),
                Arguments.of("/compute", "single", List.of("compute:success"), Map.of("compute", COMPUTE_VALUE)),
                Arguments.of("/cache", "single", List.of("cache:success"), Map.of("cache", "cache hit")),
                Arguments.of("/aggregate", "all", List.of("db:success", "file:success"),
                        Map.of("db", "DB call completed", "file", FILE_VALUE)),
                Arguments.of("/first-success", "any", List.of("cache-1:cancelled", "cache-2:success", "database:cancelled"),
                        Map.of("cache-2", "cache-2 hit")),
                Arguments.of("/aggregate-with-fallback", "fallback", List.of("db:success", "file-flaky:success"),
                        Map.of("db", "DB call completed", "file-flaky", FILE_VALUE)),
                Arguments.of("/multi-aggregate", "all",
                        List.of("db:success", "file:success", "compute:success", "cache:success"),
                        Map.of("compute", COMPUTE_VALUE, "cache", "cache hit")),
                Arguments.of("/aggregate-old", "completable-future", List.of("db:success", "file:success"),
                        Map.of("file", FILE_VALUE)),
                Arguments.of("/aggregate-cf", "completable-future", List.of("db:success", "file:success"),
                        Map.of("db", "DB call completed")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("endpoints")
    void virtualModeAnswersPerTheContract(String path, String policy, List<String> states, Map<String, Object> values) {
        check(gates.gate("virtual"), "virtual", path, policy, states, values);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("endpoints")
    void platformModeGivesTheSameAnswers(String path, String policy, List<String> states, Map<String, Object> values) {
        check(gates.gate("platform"), "platform", path, policy, states, values);
    }

    @SuppressWarnings("unchecked")
    private static void check(Loomgate gate, String mode, String path, String policy, List<String> states,
                              Map<String, Object> values) {
        try (TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = client.get(path);
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("application/json", r.headers().firstValue("Content-Type").orElseThrow());
            Map<String, Object> body = TestClient.json(r);
            assertEquals(path, body.get("endpoint"));
            assertEquals(policy, body.get("policy"));
            assertEquals("ok", body.get("status"));
            assertEquals(true, body.get("completed"));
            assertEquals(2000L, body.get("timeoutMs"));
            assertEquals(mode, body.get("threads"));
            assertEquals(r.headers().firstValue("X-Request-Id").orElseThrow(), body.get("requestId"));
            assertInstanceOf(Long.class, body.get("durationMs"));
            List<Map<String, Object>> results = (List<Map<String, Object>>) body.get("results");
            assertEquals(states, results.stream().map(p -> p.get("service") + ":" + p.get("state")).toList());
            for (Map<String, Object> part : results) {
                assertInstanceOf(Long.class, part.get("durationMs"));
                Object expected = values.get((String) part.get("service"));
                if (expected != null) {
                    assertEquals(expected, part.get("value"), part.toString());
                }
            }
            if (policy.equals("completable-future")) {
                assertEquals(path.equals("/aggregate-old") ? "common-pool" : "virtual-threads", body.get("executor"));
            }
            assertEquals(0, gate.upstreams().calls().inFlight(), "no call outlives its request");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void unknownParametersAreIgnored(String mode) {
        try (TestClient client = new TestClient(gate(mode).baseUri())) {
            assertEquals(200, client.get("/cache?foo=bar&fail_=db&n=abc").statusCode());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/aggregate?timeout=abc", "/compute?n=0", "/block?fail=nope", "/first-success?delay=db",
            "/aggregate-cf?timeout=31s", "/aggregate-old?delay=file:1h", "/multi-aggregate?n=x",
            "/aggregate-with-fallback?fail=db,,file", "/file?timeout=1ms&timeout=2ms"})
    void badValuesAre400sOnEveryEndpoint(String pathAndQuery) {
        try (TestClient client = new TestClient(gate("virtual").baseUri())) {
            HttpResponse<String> r = client.get(pathAndQuery);
            assertEquals(400, r.statusCode(), r.body());
            Map<String, Object> body = TestClient.json(r);
            assertEquals("bad_parameter", body.get("error"));
            String parameter = (String) body.get("parameter");
            assertTrue(pathAndQuery.contains(parameter + "="), parameter);
            assertTrue(((String) body.get("message")).contains("got '"), body.toString());
        }
    }
}
