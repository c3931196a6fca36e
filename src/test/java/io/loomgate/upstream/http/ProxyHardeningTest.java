package io.loomgate.upstream.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.testing.LogCapture;
import io.loomgate.testing.RawConnection.Reply;
import io.loomgate.testing.RawConnection;
import io.loomgate.testing.ScriptedUpstream;
import io.loomgate.testing.TestClient;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The proxy route against upstreams that stall, die, close idle connections, ignore bodies or
 * restart; with bounds in seconds, never milliseconds.
 */
class ProxyHardeningTest {

    private static final AtomicBoolean CLOSED_IDLE = new AtomicBoolean();
    private static ScriptedUpstream upstream;
    private static ScriptedUpstream naive;
    private static Path dir;

    @BeforeAll
    static void start() throws Exception {
        upstream = ScriptedUpstream.start()
                .script("delete-204", (r, s, out) -> {
                    ScriptedUpstream.write(out, "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
                    return false;
                })
                .script("stall-after-head", (r, s, out) -> {
                    ScriptedUpstream.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n[1,2,3,");
                    s.getInputStream().read();  // until loomgate closes the connection
                    return false;
                })
                .scriptBeforeBody("never-reads-body", (r, s, out) -> {
                    Thread.sleep(30_000);
                    return false;
                })
                .script("short-keep-alive", (r, s, out) -> {
                    ScriptedUpstream.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                    Thread.sleep(100);
                    CLOSED_IDLE.set(true);
                    return false;
                })
                .script("cut-short", (r, s, out) -> {
                    ScriptedUpstream.write(out, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel");
                    return false;
                })
                .raw("error", "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\ndown");
        naive = ScriptedUpstream.start().ignoringGetBodies();
        dir = Files.createTempDirectory("loomgate-proxy-hardening");
    }

    @AfterAll
    static void stop() throws Exception {
        upstream.close();
        naive.close();
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    private static Loomgate gate(String... flags) throws Exception {
        Path file = dir.resolve("routes-" + System.nanoTime() + ".json");
        Files.writeString(file, """
                {"upstreams": [
                   {"id": "up", "kind": "http", "url": "%s", "idleTimeout": "1s", "breaker": {"consecutiveFailures": 3}},
                   {"id": "naive", "kind": "http", "url": "%s"}],
                 "routes": [
                   {"path": "/px/*", "policy": "proxy", "upstreams": ["up"], "timeout": "5s", "maxBodyBytes": "64MB"},
                   {"path": "/api/*", "policy": "proxy", "upstreams": ["up"]},
                   {"path": "/naive/*", "policy": "proxy", "upstreams": ["naive"]}]}
                """.formatted(upstream.url("/"), naive.url("/")));
        String[] all = new String[flags.length + 4];
        System.arraycopy(new String[] {"--port", "0", "--routes", file.toString()}, 0, all, 0, 4);
        System.arraycopy(flags, 0, all, 4, flags.length);
        return Loomgate.start(CommandLine.config(all));
    }

    private static InetSocketAddress address(Loomgate gate) {
        return gate.server().address();
    }

    @Test
    void aGetWhoseBodyIsASecondRequestNeverHandsThatRequestsAnswerToAnotherClient() throws Exception {
        try (Loomgate gate = gate()) {
            String smuggled = "GET /ok/STOLEN HTTP/1.1\r\nHost: x\r\n\r\n";
            try (RawConnection client = new RawConnection(address(gate))) {
                Reply first = client.exchange("GET /naive/ok/first HTTP/1.1\r\nHost: x\r\nContent-Length: "
                        + smuggled.length() + "\r\n\r\n" + smuggled, false);
                assertEquals("{\"tag\":\"first\"}", first.body());
                assertEquals("{\"tag\":\"same\"}", client.get("/naive/ok/same").body());
            }
            for (int i = 0; i < 3; i++) {
                try (RawConnection other = new RawConnection(address(gate))) {
                    assertEquals("{\"tag\":\"other-" + i + "\"}", other.get("/naive/ok/other-" + i).body());
                }
            }
            ScriptedUpstream.Seen seen = naive.last("/ok/first");
            assertEquals("close", seen.header("Connection"), "a GET with a body asks the upstream to close after it");
            assertNotEquals(seen.connection(), naive.last("/ok/same").connection());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"virtual", "platform"})
    void anEmptyAnswerThatClosesItsConnectionIsPassedOn(String mode) throws Exception {
        try (Loomgate gate = gate("--threads", mode);
             TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = client.send("DELETE", "/px/case/delete-204");
            assertEquals(204, r.statusCode(), r.body());
        }
    }

    @Test
    void theForwardedPathIsCutBySegmentsOfTheDecodedPrefix() throws Exception {
        try (Loomgate gate = gate(); RawConnection client = new RawConnection(address(gate))) {
            assertEquals("{\"tag\":\"x\"}", client.get("/%61pi/ok/x").body());
            assertEquals("/ok/x", upstream.last("/ok/x").target(), "not /i/ok/x");
        }
    }

    @Test
    void anUpstreamThatStopsReadingTheRequestBodyIs504WithinSeconds() throws Exception {
        try (Loomgate gate = gate(); TestClient client = new TestClient(gate.baseUri())) {
            byte[] body = new byte[32 * 1024 * 1024];
            try {
                HttpResponse<String> r = client.http().send(HttpRequest.newBuilder(gate.uri("/px/case/never-reads-body"))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(504, r.statusCode(), r.body());
                // The idle timeout's own words: the route's 5 s deadline would say the deadline passed.
                assertTrue(r.body().contains("read nothing more of the request for 1s"), r.body());
            } catch (java.io.IOException reset) {
                // The JDK's server has no lingering close: the 504 goes out, then its connection closes
                // with most of the 32 MB unread, and the kernel's reset may reach the client before
                // the answer does (docs/operations.md). loomgate's server reads on before it closes.
                if (!"jdk".equals(System.getProperty("loomgate.server"))) {
                    throw reset;
                }
            }
            // On either server, the gateway gave up for the idle timeout, and says so in the call log.
            io.loomgate.core.call.UpstreamId up = io.loomgate.core.call.UpstreamId.of("up");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !gate.upstreams().calls().recentFailures(up, 5).isEmpty());
            String why = gate.upstreams().calls().recentFailures(up, 5).getFirst().outcome().toString();
            assertTrue(why.contains("read nothing more of the request for 1s"), why);
        }
    }

    @Test
    void anUpstreamThatStallsAfterItsHeadIsCutOffAfterTheIdleTimeout() throws Exception {
        try (Loomgate gate = gate(); RawConnection client = new RawConnection(address(gate))) {
            Reply r = client.get("/px/case/stall-after-head");
            assertFalse(r.complete(), r.toString());
            // The upstream never sends more: only the idle timeout closes it (a bound for a slow machine).
            assertTrue(client.closedByServer(60_000));
        }
    }

    @Test
    void aCutOffIsLoggedAndCountedAndTheClientConnectionClosed() throws Exception {
        try (LogCapture log = LogCapture.of("loomgate");
             Loomgate gate = gate(); TestClient client = new TestClient(gate.baseUri())) {
            try (RawConnection raw = new RawConnection(address(gate))) {
                Reply r = raw.get("/px/case/cut-short");
                assertFalse(r.complete());
                assertTrue(raw.closedByServer(30_000), "closed, without the last chunk");
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).alias("the log says so: " + log.lines()).until(() -> log.lines().stream()
                    .anyMatch(l -> l.contains("the response was cut off") && l.contains("in the middle of a chunk")));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Long.valueOf(1).equals(
                    ((Map<?, ?>) ((Map<?, ?>) client.getJson("/metrics?format=json").get("routes")).get("/px/*")).get("cutOff")));
            assertTrue(client.get("/metrics?format=prometheus").body()
                    .contains("loomgate_responses_cut_off_total{route=\"/px/*\"} 1"));
            // One exchange, one outcome: the metrics, the call log and the timeline all say it failed.
            io.loomgate.core.call.UpstreamId up = io.loomgate.core.call.UpstreamId.of("up");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !gate.upstreams().calls().recentFailures(up, 5).isEmpty());
            assertTrue(gate.upstreams().calls().recentFailures(up, 5).getFirst().outcome() instanceof io.loomgate.core.call.Outcome.Failed,
                    gate.upstreams().calls().recentFailures(up, 5).toString());
            io.loomgate.testing.PrometheusText p = io.loomgate.testing.PrometheusText.parse(client.get("/metrics?format=prometheus").body());
            assertEquals(1, p.value("loomgate_service_calls_total", Map.of("service", "up", "outcome", "failed")));
            assertEquals(0, p.value("loomgate_service_calls_total", Map.of("service", "up", "outcome", "success")),
                    "counted once, as it ended, not as a success when its head came");
        }
    }

    @Test
    void aPostAfterTheUpstreamClosedItsIdleConnectionIsNotA502() throws Exception {
        try (Loomgate gate = gate(); TestClient client = new TestClient(gate.baseUri())) {
            CLOSED_IDLE.set(false);
            assertEquals(200, client.get("/px/case/short-keep-alive").statusCode());
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilTrue(CLOSED_IDLE);
            HttpResponse<String> post = client.http().send(HttpRequest.newBuilder(gate.uri("/px/ok/after-close"))
                    .POST(HttpRequest.BodyPublishers.ofString("payload")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, post.statusCode(), post.body());
            assertEquals(1, upstream.count("/ok/after-close"), "sent once");
        }
    }

    @Test
    void aRestartedUpstreamIsReachedOnNewConnections() throws Exception {
        ScriptedUpstream first = ScriptedUpstream.start();
        int port = first.port();
        Path file = dir.resolve("restart.json");
        Files.writeString(file, """
                {"upstreams": [{"id": "back", "kind": "http", "url": "http://127.0.0.1:%d/"}],
                 "routes": [{"path": "/back/*", "policy": "proxy", "upstreams": ["back"]}]}""".formatted(port));
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", file.toString()));
             TestClient client = new TestClient(gate.baseUri())) {
            for (int i = 0; i < 4; i++) {
                assertEquals(200, client.get("/back/ok/before-" + i).statusCode());
            }
            first.close();
            // the old listener's port is released once its accepting thread has seen the close
            java.util.concurrent.atomic.AtomicReference<ScriptedUpstream> restarted = new java.util.concurrent.atomic.AtomicReference<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> restarted.compareAndSet(null, ScriptedUpstream.start(port)));
            try (ScriptedUpstream second = restarted.get()) {
                HttpResponse<String> post = client.http().send(HttpRequest.newBuilder(gate.uri("/back/ok/posted"))
                        .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, post.statusCode(), "a POST after the restart: " + post.body());
                assertEquals(200, client.get("/back/ok/after").statusCode(), "a GET after the restart");
            }
        }
    }

    @Test
    void forwardingHeadersAreReplacedUnlessThePeerIsATrustedProxy() throws Exception {
        String spoofed = "GET /px/ok/%s HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 6.6.6.6\r\nX-Forwarded-Proto: https\r\n\r\n";
        try (Loomgate gate = gate(); RawConnection client = new RawConnection(address(gate))) {
            client.exchange(spoofed.formatted("untrusted"), false);
            ScriptedUpstream.Seen s = upstream.last("/ok/untrusted");
            assertEquals("127.0.0.1", s.header("X-Forwarded-For"));
            assertEquals("http", s.header("X-Forwarded-Proto"));
        }
        try (Loomgate gate = gate("--trusted-proxies", "10.0.0.0/8,127.0.0.1"); RawConnection client = new RawConnection(address(gate))) {
            client.exchange(spoofed.formatted("trusted"), false);
            ScriptedUpstream.Seen s = upstream.last("/ok/trusted");
            assertEquals("6.6.6.6, 127.0.0.1", s.header("X-Forwarded-For"));
            assertEquals("https", s.header("X-Forwarded-Proto"));
        }
    }

    @Test
    void proxiedCallsGoThroughTheCallLogTheMetricsAndTheBreaker() throws Exception {
        try (Loomgate gate = gate(); TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> ok = client.get("/px/ok/logged");
            String id = ok.headers().firstValue("X-Request-Id").orElseThrow();
            // a proxied call is logged once its body has gone out, which may be just after the client has it all
            var calls = Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> gate.upstreams().calls().callsOf(id), list -> !list.isEmpty());
            assertEquals(1, calls.size(), calls.toString());
            assertEquals(UpstreamId.of("up"), calls.getFirst().upstream());
            assertEquals("success", calls.getFirst().outcome().state());
            for (int i = 0; i < 3; i++) {
                assertEquals(503, client.get("/px/case/error").statusCode());
            }
            HttpResponse<String> open = client.get("/px/case/error");
            assertEquals(502, open.statusCode(), "the breaker opened after 3 answers of 503");
            assertTrue(open.body().contains("circuit open"), open.body());
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Map<?, ?> services = (Map<?, ?>) client.getJson("/metrics?format=json").get("services");
                Map<?, ?> counted = (Map<?, ?>) ((Map<?, ?>) services.get("up")).get("calls");
                assertEquals(1L, counted.get("success"));
                assertEquals(4L, counted.get("failed"), "three 503s and one refused by the open breaker");
            });
        }
    }
}
