package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.MisbehavingUpstream;
import io.loomgate.testing.PrometheusText;
import io.loomgate.testing.TestCertificates;
import io.loomgate.testing.TestClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLSocket;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client that hangs up while its request waits on an upstream cancels the request, on loomgate's
 * server: the upstream sees its connection closed long before the request's 30 s deadline, for a
 * fan-out, a composed route and a proxy, and the request's admission place is given back.
 */
class ClientGoneTest {

    private static MisbehavingUpstream upstream;
    private static Loomgate gate;
    private static Path dir;

    @BeforeAll
    static void start() throws Exception {
        upstream = MisbehavingUpstream.start();
        dir = Files.createTempDirectory("loomgate-client-gone");
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "slow", "kind": "http", "url": "%s"},
                               {"id": "fast", "kind": "http", "url": "%s"},
                               {"id": "px", "kind": "http", "url": "%s"}],
                 "routes": [
                   {"path": "/fan", "policy": "all", "upstreams": ["slow", "fast"], "timeout": "30s"},
                   {"path": "/graph", "policy": "compose", "timeout": "30s",
                    "calls": {"a": {"upstream": "slow"}}, "answer": {"a": "{a}"}},
                   {"path": "/px/*", "policy": "proxy", "upstreams": ["px"], "timeout": "30s"}]}"""
                .formatted(upstream.url("/slow?ms=25000"), upstream.url("/json"), upstream.url("/")));
        gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", routes.toString(), "--server", "loomgate"));
    }

    @AfterAll
    static void stop() throws IOException {
        gate.close();
        upstream.close();
        io.loomgate.testing.LocalTools.deleteTree(dir);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/fan", "/graph", "/px/slow?ms=25000"})
    void theUpstreamSeesItsConnectionClosedWhenTheClientHangsUp(String path) throws Exception {
        long gone = gate.server().serverStats().orElseThrow().clientGone();
        int before = upstream.seen().size();
        io.loomgate.core.call.UpstreamId called = io.loomgate.core.call.UpstreamId.of(path.startsWith("/px/") ? "px" : "slow");
        java.util.List<io.loomgate.observe.event.CallRecord> earlier = gate.upstreams().calls().recentFailures(called, 1_000);
        long hungUpAt;
        try (Socket client = new Socket("127.0.0.1", gate.server().address().getPort())) {
            OutputStream out = client.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> upstream.seen().stream().skip(before)
                    .anyMatch(s -> s.path.equals("/slow")));
            hungUpAt = System.nanoTime();
        }
        MisbehavingUpstream.Seen slow = upstream.seen().stream().skip(before).filter(s -> s.path.equals("/slow"))
                .findFirst().orElseThrow();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> slow.closedAt != 0);
        assertTrue(slow.closedAt - hungUpAt > 0, "the upstream's connection closed after the client hung up, not before");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(
                () -> gate.server().serverStats().orElseThrow().clientGone() == gone + 1);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> gate.server().admission().admitted() == 0);
        Awaitility.await().until(() -> gate.upstreams().calls().recentFailures(called, 1_000).stream()
                .anyMatch(r -> !earlier.contains(r)));
        io.loomgate.observe.event.CallRecord stopped = gate.upstreams().calls().recentFailures(called, 1_000).stream()
                .filter(r -> !earlier.contains(r)).findFirst().orElseThrow();
        assertEquals(new io.loomgate.core.call.Outcome.Cancelled(io.loomgate.http.StopReason.CLIENT_GONE), stopped.outcome(),
                "the call log says why the call stopped: the client went away, not a sibling");
        String route = path.startsWith("/px/") ? "/px/*" : path;
        try (TestClient client = new TestClient(gate.baseUri())) {
            PrometheusText metrics = PrometheusText.parse(client.get("/metrics?format=prometheus").body());
            assertTrue(metrics.value("loomgate_requests_total", Map.of("route", route, "status", "499")) >= 1,
                    "the request is recorded as 499, as nginx logs a client that went away");
        }
    }

    @Test
    void overTlsTooTheUpstreamSeesItsConnectionClosedWhenTheClientHangsUp() throws Exception {
        TestCertificates ca = TestCertificates.ca();
        TestCertificates.Issued cert = ca.issue("gateway", "dns:localhost,ip:127.0.0.1");
        try (Loomgate tls = Loomgate.start(CommandLine.config("--port", "0", "--server", "loomgate",
                "--routes", dir.resolve("routes.json").toString(),
                "--tls-cert", cert.chainPem().toString(), "--tls-key", cert.keyPem().toString()))) {
            int before = upstream.seen().size();
            long hungUpAt;
            try (SSLSocket client = (SSLSocket) ca.clientContext().getSocketFactory()
                    .createSocket("127.0.0.1", tls.baseUri().getPort())) {
                OutputStream out = client.getOutputStream();
                out.write("GET /fan HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> upstream.seen().stream().skip(before)
                        .anyMatch(x -> x.path.equals("/slow")));
                hungUpAt = System.nanoTime();
            }
            MisbehavingUpstream.Seen slow = upstream.seen().stream().skip(before).filter(x -> x.path.equals("/slow"))
                    .findFirst().orElseThrow();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> slow.closedAt != 0);
            assertTrue(slow.closedAt - hungUpAt > 0, "the upstream's connection closed after the client hung up");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> tls.server().admission().admitted() == 0);
        }
    }
}
