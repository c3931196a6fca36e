package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.loomgate.config.CommandLine;
import io.loomgate.json.JsonParser;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.ChildProcess;
import io.loomgate.testing.LocalTools;
import io.loomgate.testing.TestClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces read back from a real trace backend: Jaeger's all-in-one (v1.76.0, built by scripts/test
 * into ~/.cache/loomgate) takes loomgate's OTLP/HTTP export, and its query API gives back the span
 * tree of a composed request, continued from the client's trace.
 */
class JaegerTraceIT {

    private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
    private static final String CLIENT_SPAN = "b7ad6b7169203331";

    @TempDir
    Path dir;

    /** scripts/test's build, waited for while it runs (it starts with the suite, in the background). */
    private static Path jaeger() throws InterruptedException {
        String given = System.getenv("LOOMGATE_JAEGER");
        Path binary = given != null ? Path.of(given)
                : Path.of(System.getProperty("user.home"), ".cache/loomgate/jaeger-v1.76.0/jaeger");
        Path log = Path.of(System.getenv().getOrDefault("LOOMGATE_JAEGER_LOG", binary.resolveSibling("build.log").toString()));
        long until = System.nanoTime() + Duration.ofMinutes(12).toNanos();
        while (!Files.isExecutable(binary)) {
            String said = read(log);
            if (said.contains("FAILED") || !Files.exists(log) || System.nanoTime() > until) {
                fail("Jaeger is not at " + binary + ". scripts/test builds it with Go (once): cd " + binary.getParent()
                        + "/src && go mod init loomgate.local/jaeger && go get -tool github.com/jaegertracing/jaeger/cmd/jaeger@v1.76.0"
                        + " && go build -o " + binary + " github.com/jaegertracing/jaeger/cmd/jaeger\n" + said);
            }
            Thread.sleep(2_000);
        }
        return binary;
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aComposedRequestsSpanTreeComesBackFromJaeger() throws Exception {
        Path binary = jaeger();
        int otlp = LocalTools.freePort();
        int query = LocalTools.freePort();
        int grpc = LocalTools.freePort();
        Path config = Files.writeString(dir.resolve("jaeger.yaml"), """
                service:
                  extensions: [jaeger_storage, jaeger_query]
                  pipelines:
                    traces: {receivers: [otlp], processors: [batch], exporters: [jaeger_storage_exporter]}
                  telemetry: {metrics: {level: none}}
                extensions:
                  jaeger_query: {storage: {traces: memstore}, http: {endpoint: "127.0.0.1:%d"}, grpc: {endpoint: "127.0.0.1:%d"}}
                  jaeger_storage: {backends: {memstore: {memory: {max_traces: 1000}}}}
                receivers:
                  otlp: {protocols: {http: {endpoint: "127.0.0.1:%d"}}}
                processors:
                  batch: {timeout: 100ms}
                exporters:
                  jaeger_storage_exporter: {trace_storage: memstore}
                """.formatted(query, grpc, otlp));
        try (ChildProcess backend = ChildProcess.start(List.of(binary.toString(), "--config", config.toString()), Map.of(), dir);
             HttpClient http = HttpClient.newHttpClient();
             ApiUpstream api = ApiUpstream.start().answer("/users/7", "{\"name\":\"Ada\",\"teamId\":3}")
                     .answer("/teams/3", "{\"name\":\"Engines\"}")) {
            URI jaegerQuery = URI.create("http://127.0.0.1:" + query);
            Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> http.send(
                    HttpRequest.newBuilder(jaegerQuery.resolve("/api/services")).build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode() == 200);
            Path routes = Files.writeString(dir.resolve("routes.json"), """
                    {"upstreams": [{"id": "users", "kind": "http", "url": "%s"}],
                     "routes": [{"path": "/users/{id}/card", "policy": "compose",
                                 "calls": {"user": {"upstream": "users", "path": "/users/{id}"},
                                           "team": {"upstream": "users", "path": "/teams/{user.teamId}"}}}]}"""
                    .formatted(api.url()));
            try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", routes.toString(),
                    "--otlp-endpoint", "http://127.0.0.1:" + otlp, "--trace-sample", "1"));
                 TestClient client = new TestClient(gate.baseUri())) {
                HttpResponse<String> r = client.http().send(HttpRequest.newBuilder(gate.uri("/users/7/card"))
                        .header("traceparent", "00-" + TRACE + "-" + CLIENT_SPAN + "-01").build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());

                Map<String, Object>[] trace = new Map[1];
                Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                    HttpResponse<String> t = http.send(HttpRequest.newBuilder(jaegerQuery.resolve("/api/traces/" + TRACE)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    trace[0] = (Map<String, Object>) ((List<Object>) JsonParser.parseObject(t.body()).get("data")).getFirst();
                    return ((List<?>) trace[0].get("spans")).size() >= 5;
                });
                List<Map<String, Object>> spans = (List<Map<String, Object>>) trace[0].get("spans");
                Map<String, String> parentOf = spans.stream().collect(Collectors.toMap(s -> (String) s.get("spanID"), s -> {
                    List<Map<String, Object>> refs = (List<Map<String, Object>>) s.get("references");
                    return refs.isEmpty() ? "" : (String) refs.getFirst().get("spanID");
                }));
                Map<String, Object> server = spans.stream().filter(s -> s.get("operationName").equals("GET /users/{id}/card"))
                        .findFirst().orElseThrow(() -> new AssertionError(spans.toString()));
                assertEquals(CLIENT_SPAN, parentOf.get((String) server.get("spanID")), "continued from the client's span");
                List<Map<String, Object>> calls = spans.stream().filter(s -> s.get("operationName").equals("call users")).toList();
                assertEquals(2, calls.size(), spans.toString());
                calls.forEach(c -> assertEquals(server.get("spanID"), parentOf.get((String) c.get("spanID"))));
                List<Map<String, Object>> tries = spans.stream().filter(s -> s.get("operationName").equals("GET")).toList();
                assertEquals(calls.stream().map(c -> c.get("spanID")).collect(Collectors.toSet()),
                        tries.stream().map(t -> parentOf.get((String) t.get("spanID"))).collect(Collectors.toSet()));
                assertEquals(tries.stream().map(t -> "00-" + TRACE + "-" + t.get("spanID") + "-01").collect(Collectors.toSet()),
                        Set.copyOf(api.requests().stream().map(q -> q.headers().get("traceparent")).toList()),
                        "the upstream was sent each try's span");
                Map<String, Object> processes = (Map<String, Object>) trace[0].get("processes");
                assertTrue(processes.values().stream().anyMatch(p -> "loomgate".equals(((Map<?, ?>) p).get("serviceName"))), processes.toString());
                long userEnds = start(tries, "/users/7") + duration(tries, "/users/7");
                assertTrue(userEnds <= start(tries, "/teams/3"), "the timeline shows team after user: the critical path");
            }
            backend.terminate();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> tryTo(List<Map<String, Object>> tries, String path) {
        return tries.stream().filter(t -> ((List<Map<String, Object>>) t.get("tags")).stream()
                .anyMatch(tag -> tag.get("key").equals("url.full") && ((String) tag.get("value")).endsWith(path))).findFirst().orElseThrow();
    }

    private static long start(List<Map<String, Object>> tries, String path) {
        return ((Number) tryTo(tries, path).get("startTime")).longValue();
    }

    private static long duration(List<Map<String, Object>> tries, String path) {
        return ((Number) tryTo(tries, path).get("duration")).longValue();
    }
}
