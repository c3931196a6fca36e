package io.loomgate.upstream.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.MisbehavingUpstream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An upstream of three replicas, each a real server on 127.0.0.1: spreading, another replica for the next try, ejection, hashing. */
class ReplicasGatewayTest {

    @TempDir
    Path dir;
    private final List<ApiUpstream> replicas = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        for (int i = 0; i < 3; i++) {
            replicas.add(ApiUpstream.start().answer("/api", "{\"replica\":" + i + "}"));
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (ApiUpstream r : replicas) {
            r.close();
        }
    }

    private String endpoints(List<String> urls) {
        return urls.stream().map(u -> "\"" + u + "/api\"").collect(Collectors.joining(", ", "[", "]"));
    }

    private List<String> urls() {
        return replicas.stream().map(ApiUpstream::url).toList();
    }

    private FileGate gate(String upstreamMore, String routeMore, List<String> urls) throws Exception {
        return FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"endpoints\": " + endpoints(urls) + upstreamMore + "}",
                List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"api\"]" + routeMore + "}"));
    }

    private int served(int replica) {
        return (int) replicas.get(replica).events().stream().filter(e -> e.startsWith("end /api")).count();
    }

    @Test
    void roundRobinSpreadsCallsEvenly() throws Exception {
        try (FileGate g = gate(", \"balance\": \"round-robin\"", "", urls())) {
            for (int i = 0; i < 30; i++) {
                assertEquals(200, g.client().get("/x").statusCode());
            }
            assertEquals(List.of(10, 10, 10), List.of(served(0), served(1), served(2)));
            String metrics = g.client().get("/metrics?format=prometheus").body();
            for (String url : urls()) {
                String endpoint = url.substring("http://".length());
                assertTrue(metrics.contains("loomgate_endpoint_calls_total{service=\"api\",endpoint=\"" + endpoint + "\"} 10"), metrics);
                assertTrue(metrics.contains("loomgate_endpoint_try_duration_seconds_count{service=\"api\",endpoint=\"" + endpoint
                        + "\"} 10"), "each endpoint's latency histogram counts its tries: " + metrics);
            }
        }
    }

    @Test
    void aRetryGoesToAnotherReplicaAndADeadOneIsEjected() throws Exception {
        List<String> urls = new ArrayList<>(urls());
        urls.set(1, "http://127.0.0.1:" + MisbehavingUpstream.refusedPort());   // a replica that died
        try (FileGate g = gate(", \"balance\": \"round-robin\", \"retry\": {\"attempts\": 2, \"backoff\": \"1ms\", \"budget\": 1},"
                + " \"outliers\": {\"consecutiveFailures\": 2, \"baseEjection\": \"1m\"}", "", urls)) {
            for (int i = 0; i < 30; i++) {
                assertEquals(200, g.client().get("/x").statusCode(), "a refused try is retried on another replica");
            }
            String metrics = g.client().get("/metrics?format=json").body();
            long retries = Long.parseLong(metrics.replaceAll("(?s).*\"api\":\\{\"sent\":(\\d+).*", "$1"));
            assertEquals(2, retries, "two refusals, then the dead replica is ejected and never tried again: " + metrics);
            assertEquals(30, served(0) + served(2));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theTimelineAndServerTimingNameTheEndpointOfEachTry() throws Exception {
        String dead = "127.0.0.1:" + MisbehavingUpstream.refusedPort();
        List<String> urls = List.of("http://" + dead, replicas.get(0).url(), replicas.get(1).url());
        try (FileGate g = gate(", \"balance\": \"round-robin\", \"retry\": {\"attempts\": 2, \"backoff\": \"1ms\", \"budget\": 1}",
                "", urls)) {
            HttpResponse<String> r = g.client().get("/x");   // round-robin starts at the first: the dead one
            assertEquals(200, r.statusCode(), r.body());
            String timing = r.headers().firstValue("Server-Timing").orElseThrow();
            assertTrue(timing.matches(".*api-try1;dur=[0-9.]+;desc=\"failed\".*api-try2;dur=[0-9.]+;desc=\"success\".*"), timing);
            assertFalse(timing.contains("127.0.0.1"), "Server-Timing names tries, never an endpoint's address: " + timing);

            Map<String, Object> timeline = g.client().getJson("/debug/requests/" + r.headers().firstValue("X-Request-Id").orElseThrow());
            List<Map<String, Object>> tries = (List<Map<String, Object>>) timeline.get("attempts");
            assertEquals(dead, tries.get(0).get("endpoint"), "the timeline keeps the endpoints: " + timeline);
            String second = (String) tries.get(1).get("endpoint");
            assertTrue(List.of(urls.get(1), urls.get(2)).contains("http://" + second), "the retry went to a live replica: " + timeline);
            assertEquals(List.of("failed", "success"), tries.stream().map(t -> t.get("outcome")).toList());
        }
    }

    @Test
    void withoutRetriesOnlyTheFailuresBeforeEjectionReachTheClient() throws Exception {
        List<String> urls = new ArrayList<>(urls());
        urls.set(2, "http://127.0.0.1:" + MisbehavingUpstream.refusedPort());
        try (FileGate g = gate(", \"balance\": \"round-robin\", \"outliers\": {\"consecutiveFailures\": 3}", "", urls)) {
            int failed = 0;
            for (int i = 0; i < 60; i++) {
                failed += g.client().get("/x").statusCode() == 200 ? 0 : 1;
            }
            assertEquals(3, failed, "three refusals eject it; after that, none");
            String state = g.gate().upstreams().endpoints(io.loomgate.core.call.UpstreamId.of("api")).toString();
            assertTrue(state.contains("ejected=true, healthy=true, ejections=1"), state);
        }
    }

    @Test
    void aProxiedRequestRefusedByOneReplicaIsRetriedOnAnother() throws Exception {
        List<String> urls = List.of("http://127.0.0.1:" + MisbehavingUpstream.refusedPort(), replicas.get(0).url());
        try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"endpoints\": " + endpoints(urls)
                        + ", \"balance\": \"round-robin\", \"retry\": {\"attempts\": 2, \"backoff\": \"1ms\", \"budget\": 1}}",
                List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"))) {
            for (int i = 0; i < 10; i++) {
                HttpResponse<String> r = g.client().get("/p/");
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("{\"replica\":0}", r.body());
            }
        }
    }

    @Test
    void aHedgesBackupGoesToAnotherReplica() throws Exception {
        replicas.forEach(r -> r.hold("/api"));
        try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"endpoints\": " + endpoints(urls())
                        + ", \"retry\": {\"attempts\": 1, \"budget\": 1}}",
                List.of("{\"path\": \"/x\", \"policy\": \"hedge\", \"upstreams\": [\"api\"], \"hedge\": {\"after\": \"0ms\", \"budget\": 1}}"))) {
            var answer = io.loomgate.testing.Background.supply(() -> g.client().get("/x"));
            org.awaitility.Awaitility.await().until(() -> replicas.stream().filter(r -> r.events().contains("start /api")).count() == 2);
            replicas.forEach(r -> r.release("/api"));
            HttpResponse<String> r = answer.get();
            assertEquals(200, r.statusCode());
            assertEquals(2, replicas.stream().filter(r2 -> r2.events().contains("start /api")).count(), "two copies, two replicas");
            Map<String, Object> timeline = g.client().getJson("/debug/requests/" + r.headers().firstValue("X-Request-Id").orElseThrow());
            @SuppressWarnings("unchecked")
            List<Object> at = ((List<Map<String, Object>>) timeline.get("attempts")).stream().map(t -> t.get("endpoint")).toList();
            assertEquals(2, at.size(), timeline.toString());
            assertTrue(!at.get(0).equals(at.get(1)), "each copy names its own replica: " + timeline);
        }
    }

    @Test
    void aReplicaThatFailsItsHealthChecksTakesNoCallsUntilItPassesThemAgain() throws Exception {
        replicas.forEach(r -> r.answer("/healthz", "{}"));
        replicas.get(1).answer("/healthz", 503, "{}");
        try (FileGate g = gate(", \"balance\": \"round-robin\", \"health\": {\"path\": \"/healthz\", \"every\": \"20ms\","
                + " \"unhealthyAfter\": 2, \"healthyAfter\": 2}", "", urls())) {
            var id = io.loomgate.core.call.UpstreamId.of("api");
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> g.gate().upstreams().endpoints(id).get(1).healthy() == false);
            int before = served(1);
            for (int i = 0; i < 20; i++) {
                assertEquals(200, g.client().get("/x").statusCode());
            }
            assertEquals(before, served(1), "an unhealthy replica takes no call");

            replicas.get(1).answer("/healthz", "{}");
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> g.gate().upstreams().endpoints(id).get(1).healthy());
            for (int i = 0; i < 9; i++) {
                g.client().get("/x");
            }
            assertTrue(served(1) > before, "back in the balance once it passed healthyAfter checks");
        }
        long checksAfter = replicas.get(0).events().stream().filter(e -> e.equals("start /healthz")).count();
        Thread.sleep(200);
        assertEquals(checksAfter, replicas.get(0).events().stream().filter(e -> e.equals("start /healthz")).count(),
                "the checks stop with loomgate");
    }

    @Test
    void aReloadThatRemovesTheUpstreamStopsItsHealthChecks() throws Exception {
        replicas.forEach(r -> r.answer("/healthz", "{}"));
        try (FileGate g = gate(", \"health\": {\"path\": \"/healthz\", \"every\": \"20ms\"}", "", urls())) {
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> checks(0) >= 3);
            java.nio.file.Files.writeString(dir.resolve("routes.json"), """
                    {"upstreams": [{"id": "db", "kind": "simulated", "service": "db"}],
                     "routes": [{"path": "/x", "policy": "single", "upstreams": ["db"]}]}""");
            assertTrue(g.gate().reload("test") instanceof io.loomgate.api.AdminControl.Reload.Done);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> {
                long n = checks(0);
                Thread.sleep(150);
                return checks(0) == n;
            });
        }
    }

    private long checks(int replica) {
        return replicas.get(replica).events().stream().filter(e -> e.equals("start /healthz")).count();
    }

    @Test
    void aHashKeyStaysOnOneReplica() throws Exception {
        try (FileGate g = gate(", \"balance\": \"hash\", \"hashKey\": \"{header.X-User}\"", "", urls())) {
            for (String user : List.of("ada", "alan", "grace", "edsger")) {
                List<String> seen = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    HttpResponse<String> r = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/x")).header("X-User", user)
                            .build(), HttpResponse.BodyHandlers.ofString());
                    seen.add(r.body().replaceAll(".*\"replica\":(\\d).*", "$1"));
                }
                assertEquals(1, seen.stream().distinct().count(), user + " went to " + seen);
            }
        }
    }

    @Test
    void anUpstreamWhoseEveryEndpointIsDownAnswersA502ThatSaysSo() throws Exception {
        int a = MisbehavingUpstream.refusedPort();
        int b = MisbehavingUpstream.refusedPort();
        org.junit.jupiter.api.Assumptions.assumeTrue(a != b, "two free ports");
        List<String> urls = List.of("http://127.0.0.1:" + a, "http://127.0.0.1:" + b);
        try (FileGate g = gate(", \"health\": {\"path\": \"/healthz\", \"every\": \"20ms\", \"unhealthyAfter\": 1}", "", urls)) {
            var id = io.loomgate.core.call.UpstreamId.of("api");
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> g.gate().upstreams().endpoints(id).stream().noneMatch(io.loomgate.upstream.EndpointState::healthy));
            HttpResponse<String> r = g.client().get("/x");
            assertEquals(502, r.statusCode(), r.body());
            assertTrue(r.body().contains("every endpoint is down (ejected or failing its health checks); connection refused"),
                    r.body());
            assertFalse(r.body().contains("127.0.0.1"), r.body());
        }
    }

    @Test
    void leastRequestSendsASlowReplicaASmallShare() throws Exception {
        replicas.get(0).delay("/api", java.time.Duration.ofMillis(200));
        replicas.get(1).delay("/api", java.time.Duration.ofMillis(10));
        replicas.get(2).delay("/api", java.time.Duration.ofMillis(10));
        try (FileGate g = gate("", "", urls())) {   // least-request is the default
            List<java.util.concurrent.Future<Integer>> clients = new ArrayList<>();
            try (var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
                for (int c = 0; c < 6; c++) {
                    clients.add(pool.submit(() -> {
                        int ok = 0;
                        for (int i = 0; i < 25; i++) {
                            ok += g.client().get("/x").statusCode() == 200 ? 1 : 0;
                        }
                        return ok;
                    }));
                }
                for (var c : clients) {
                    assertEquals(25, c.get());
                }
            }
            int slow = served(0);
            assertEquals(150, slow + served(1) + served(2));
            assertTrue(slow < 150 / 6, "a replica 20 times slower holds its calls longer, so it is chosen less: "
                    + List.of(served(0), served(1), served(2)));
        }
    }

    @Test
    void failOnSaysWhichFailuresCountTowardsAnEjection() throws Exception {
        replicas.get(1).answer("/api", 500, "{\"error\":\"broken\"}");
        try (FileGate g = gate(", \"balance\": \"round-robin\", \"outliers\": {\"consecutiveFailures\": 2, \"failOn\": [\"connect\", \"gateway\"]}",
                "", urls())) {
            for (int i = 0; i < 30; i++) {
                g.client().get("/x");
            }
            assertEquals(10, served(1), "a 500 is not a gateway failure: the replica keeps its share");
        }
        int before = served(1);
        try (FileGate g = gate(", \"balance\": \"round-robin\", \"outliers\": {\"consecutiveFailures\": 2, \"failOn\": [\"5xx\"]}",
                "", urls())) {
            for (int i = 0; i < 30; i++) {
                g.client().get("/x");
            }
            assertEquals(2, served(1) - before, "two 500s in a row eject it");
        }
    }
}
