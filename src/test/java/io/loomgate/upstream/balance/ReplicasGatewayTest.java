package io.loomgate.upstream.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.MisbehavingUpstream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        return (int) replicas.get(replica).events().stream().filter(e -> e.startsWith("end ")).count();
    }

    @Test
    void roundRobinSpreadsCallsEvenly() throws Exception {
        try (FileGate g = gate(", \"balance\": \"round-robin\"", "", urls())) {
            for (int i = 0; i < 30; i++) {
                assertEquals(200, g.client().get("/x").statusCode());
            }
            assertEquals(List.of(10, 10, 10), List.of(served(0), served(1), served(2)));
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
            assertTrue(state.contains("ejected=true, ejections=1"), state);
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
            assertEquals(200, answer.get().statusCode());
            assertEquals(2, replicas.stream().filter(r -> r.events().contains("start /api")).count(), "two copies, two replicas");
        }
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
}
