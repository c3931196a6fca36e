package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.http2.ErrorCode;
import io.loomgate.http2.Frame;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.LocalTools;
import io.loomgate.testing.PrometheusText;
import io.loomgate.testing.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway over HTTP/2, end to end, with clients written elsewhere: curl with prior knowledge
 * (h2c) and over TLS, the JDK's HttpClient negotiating h2 by ALPN, and a stream reset by the client
 * seen by the upstream as its request abandoned. Each gateway runs on loomgate's server whichever
 * the suite's default: the JDK's speaks only HTTP/1.1.
 */
class Http2GatewayTest {

    private static final TestCertificates CA = TestCertificates.ca();
    private static final TestCertificates.Issued SERVER = CA.issue("gateway-h2", "dns:localhost,ip:127.0.0.1");

    /** curl's output: the body, then a line with the HTTP version and the status. */
    private static String curl(String... args) throws IOException, InterruptedException {
        Path curl = LocalTools.installed("curl").orElseThrow(() -> new AssertionError(
                "curl is not installed: sudo apt-get install -y curl"));
        List<String> command = new ArrayList<>(List.of(curl.toString(), "-s", "-S", "--max-time", "60",
                "-w", "\n%{http_version} %{http_code}"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(90, TimeUnit.SECONDS), "curl did not end");
        return out;
    }

    /** A proxy route whose deadline (two minutes) no test waits for: what ends a call early is a cancel. */
    private static Path proxyRoutes(Path dir, ApiUpstream api) throws IOException {
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "api", "kind": "http", "url": "%s/"}],
                 "routes": [{"path": "/api/*", "policy": "proxy", "upstreams": ["api"], "timeout": "120s"}]}""".formatted(api.url()));
        return routes;
    }

    private static Loomgate proxy(Path dir, ApiUpstream api, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--server", "loomgate", "--port", "0", "--max-timeout", "120s",
                "--routes", proxyRoutes(dir, api).toString()));
        args.addAll(List.of(more));
        return Loomgate.start(CommandLine.config(args.toArray(String[]::new)));
    }

    @Test
    void curlWithPriorKnowledgeGetsTheAggregateAndProxiesABodyOverH2c(@TempDir Path dir) throws Exception {
        try (Loomgate demo = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0"))) {
            String aggregate = curl("--http2-prior-knowledge", demo.uri("/aggregate").toString());
            assertTrue(aggregate.endsWith("\n2 200"), aggregate);
            assertTrue(aggregate.contains("\"status\":\"ok\""), aggregate);
        }
        Path log = dir.resolve("access.log");
        try (ApiUpstream api = ApiUpstream.start().answer("/echo", "{\"echo\":true}");
             Loomgate gate = proxy(dir, api, "--access-log", "json", "--access-log-file", log.toString())) {

            String proxied = curl("--http2-prior-knowledge", "-d", "hello over h2", gate.uri("/api/echo").toString());
            assertTrue(proxied.endsWith("\n2 200"), proxied);
            ApiUpstream.Request seen = api.requests().getFirst();
            assertEquals("POST", seen.method());
            assertEquals("hello over h2", seen.body());
            assertEquals("http", seen.headers().get("x-forwarded-proto"));

            String h1 = curl("--http1.1", gate.uri("/health").toString());
            assertTrue(h1.endsWith("\n1.1 200"), "HTTP/1.1 on the same port: " + h1);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> Files.exists(log)
                    && Files.readAllLines(log).stream().anyMatch(l -> l.contains("/api/echo")));
            String line = Files.readAllLines(log).stream().filter(l -> l.contains("/api/echo")).findFirst().orElseThrow();
            assertEquals("HTTP/2.0", io.loomgate.json.JsonParser.parseObject(line).get("protocol"), line);
        }
    }

    /**
     * An HTTP/2 request without content-length whose HEADERS do not end the stream has a body of
     * unknown length (gRPC's requests all look so): it must reach the upstream whole, not
     * be taken for a request without a body and answered before the body has come.
     */
    @Test
    void aBodyOfUnknownLengthIsForwardedWhole(@TempDir Path dir) throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/echo", "{\"echo\":true}");
             Loomgate gate = proxy(dir, api);
             H2Wire w = new H2Wire(new InetSocketAddress("127.0.0.1", gate.baseUri().getPort()))) {
            w.request(1, "POST", "/api/echo", false, "content-type", "text/plain");
            w.send(new Frame.Data(1, "first, ".getBytes(StandardCharsets.UTF_8), false, 7));
            w.send(new Frame.Data(1, "then the rest".getBytes(StandardCharsets.UTF_8), true, 13));
            H2Wire.Answer answer = w.answer(1);
            assertEquals(200, answer.status());
            assertEquals(null, answer.reset(), "the answer came after the whole body, so nothing is reset");
            ApiUpstream.Request seen = api.requests().getFirst();
            assertEquals("first, then the rest", seen.body());
        }
    }

    @Test
    void aStreamTheClientResetsIsAbandonedAtTheUpstream(@TempDir Path dir) throws Exception {
        try (ApiUpstream api = ApiUpstream.start().hold("/slow");
             Loomgate gate = proxy(dir, api);
             H2Wire w = new H2Wire(new InetSocketAddress("127.0.0.1", gate.baseUri().getPort()))) {
            w.request(1, "GET", "/api/slow", true);
            api.await("start /slow");
            w.send(new Frame.RstStream(1, ErrorCode.CANCEL));
            api.await("closed /slow");
            w.request(3, "GET", "/health", true);
            assertEquals(200, w.answer(3).status(), "the connection goes on");

            w.request(5, "GET", "/metrics?format=prometheus", true);
            PrometheusText metrics = PrometheusText.parse(new String(w.answer(5).body(), StandardCharsets.UTF_8));
            assertEquals(1, metrics.value("loomgate_http2_connections_total", Map.of()));
            assertEquals(3, metrics.value("loomgate_http2_streams_total", Map.of()));
            assertEquals(0, metrics.value("loomgate_http2_enhance_your_calm_total", Map.of("reason", "rapid_reset")));
        }
    }

    @Test
    void aRapidResetEndsTheConnectionWithEnhanceYourCalmAndIsCounted() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0"));
             H2Wire w = new H2Wire(new InetSocketAddress("127.0.0.1", gate.baseUri().getPort()))) {
            w.sendRapidResets(3_000, "/block");
            assertEquals(ErrorCode.ENHANCE_YOUR_CALM, w.goAway().code());
            try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
                String text = client.send(HttpRequest.newBuilder(gate.uri("/metrics?format=prometheus")).build(), HttpResponse.BodyHandlers.ofString()).body();
                PrometheusText metrics = PrometheusText.parse(text);
                assertEquals(1, metrics.value("loomgate_http2_enhance_your_calm_total", Map.of("reason", "rapid_reset")));
                assertEquals(0, metrics.value("loomgate_http2_enhance_your_calm_total", Map.of("reason", "ping")));
            }
        }
    }

    /**
     * A gRPC request loomgate ends itself gets HTTP 200 and a Trailers-Only answer with its
     * grpc-status, as Envoy gives: no route is UNIMPLEMENTED, an upstream that refuses connections
     * UNAVAILABLE, a deadline DEADLINE_EXCEEDED (the upstream sees its call abandoned), the route's or
     * the client's own {@code grpc-timeout}; over
     * HTTP/1.1 the same request gets loomgate's plain error.
     */
    @Test
    void aGrpcRequestTheGatewayEndsGetsItsStatusInATrailersOnlyAnswer(@TempDir Path dir) throws Exception {
        int closed = LocalTools.freePort();
        try (ApiUpstream api = ApiUpstream.start().hold("/slow").hold("/slower")) {
            Path routes = dir.resolve("routes.json");
            Files.writeString(routes, """
                    {"upstreams": [{"id": "api", "kind": "http", "url": "%s/"}, {"id": "gone", "kind": "http", "url": "http://127.0.0.1:%d/"}],
                     "routes": [{"path": "/api/*", "policy": "proxy", "upstreams": ["api"], "timeout": "300ms"},
                                {"path": "/long/*", "policy": "proxy", "upstreams": ["api"], "timeout": "120s"},
                                {"path": "/gone/*", "policy": "proxy", "upstreams": ["gone"]}]}""".formatted(api.url(), closed));
            try (Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--max-timeout", "120s",
                    "--routes", routes.toString()));
                 H2Wire w = new H2Wire(new InetSocketAddress("127.0.0.1", gate.baseUri().getPort()))) {
                String[] grpc = {"content-type", "application/grpc", "te", "trailers"};
                w.request(1, "POST", "/helloworld.Greeter/SayHello", true, grpc);
                H2Wire.Answer none = w.answer(1);
                assertEquals(200, none.status());
                assertEquals("12", none.fields().get("grpc-status"), none.fields().toString());
                assertEquals("application/grpc", none.fields().get("content-type"));
                assertTrue(none.fields().get("grpc-message").startsWith("no route"), none.fields().toString());
                assertEquals(0, none.body().length, "Trailers-Only: one HEADERS frame that ends the stream");

                w.request(3, "POST", "/gone/x", true, grpc);
                assertEquals("14", w.answer(3).fields().get("grpc-status"), "UNAVAILABLE");

                w.request(5, "POST", "/api/slow", true, grpc);
                assertEquals("4", w.answer(5).fields().get("grpc-status"), "DEADLINE_EXCEEDED");
                api.await("closed /slow");

                w.request(7, "POST", "/long/slower", true, "content-type", "application/grpc", "te", "trailers", "grpc-timeout", "200m");
                H2Wire.Answer timedOut = w.answer(7);
                assertEquals("4", timedOut.fields().get("grpc-status"), "grpc-timeout is the deadline, below the route's two minutes: " + timedOut);
                api.await("closed /slower");

                try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
                    HttpResponse<String> h1 = client.send(HttpRequest.newBuilder(gate.uri("/helloworld.Greeter/SayHello"))
                            .header("content-type", "application/grpc").POST(HttpRequest.BodyPublishers.noBody()).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(404, h1.statusCode(), "no gRPC over HTTP/1.1: the plain error");
                }
            }
        }
    }

    /**
     * Starts {@code command}, a proxy in front of {@code gate} on {@code port}, and asks it for
     * {@code /aggregate} over HTTP/1.1 until it answers: loomgate must have served it as an HTTP/2 stream.
     */
    private static void aggregateThrough(String name, List<String> command, Path dir, int port, Loomgate gate) throws Exception {
        try (io.loomgate.testing.ChildProcess front = io.loomgate.testing.ChildProcess.start(command, Map.of(), dir)) {
            String answer = "";
            for (int i = 0; i < 300 && !answer.endsWith("\n1.1 200"); i++) {
                assertTrue(front.isAlive(), name + " exited: " + front.stderr());
                answer = curl("--http1.1", "http://127.0.0.1:" + port + "/aggregate");
                Thread.sleep(50);
            }
            assertTrue(answer.endsWith("\n1.1 200"), answer);
            assertTrue(answer.contains("\"status\":\"ok\""), answer);
            try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
                String text = client.send(HttpRequest.newBuilder(gate.uri("/metrics?format=prometheus")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                assertTrue(PrometheusText.parse(text).value("loomgate_http2_streams_total", Map.of()) >= 1,
                        name + "'s request came over HTTP/2");
            }
        }
    }

    /**
     * nginx as an HTTP/2 client in front of loomgate: its {@code grpc_pass} speaks h2c to its upstream
     * (nginx's {@code proxy_pass} speaks only HTTP/1.x), and carries a plain request as well.
     */
    @Test
    void nginxInFrontSpeaksH2cToLoomgate(@TempDir Path dir) throws Exception {
        Path nginx = LocalTools.installed("nginx").orElseThrow(() -> new AssertionError(
                "nginx is not installed, and this test puts it in front of loomgate (install it: sudo apt-get install nginx-light)"));
        try (Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0"))) {
            int port = LocalTools.freePort();
            Path conf = LocalTools.nginxConfig(dir, "server { listen 127.0.0.1:%d; location / { grpc_pass grpc://127.0.0.1:%d; } }"
                    .formatted(port, gate.baseUri().getPort()));
            aggregateThrough("nginx", List.of(nginx.toString(), "-g", "daemon off;", "-p", dir.toString(), "-c", conf.toString()),
                    dir, port, gate);
        }
    }

    /** HAProxy as an HTTP/2 client in front of loomgate: a server line with {@code proto h2} speaks h2c to it. */
    @Test
    void haproxyInFrontSpeaksH2cToLoomgate(@TempDir Path dir) throws Exception {
        Path haproxy = LocalTools.installed("haproxy").orElseThrow(() -> new AssertionError(
                "haproxy is not installed, and this test puts it in front of loomgate (install it: sudo apt-get install haproxy)"));
        try (Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0"))) {
            int port = LocalTools.freePort();
            Path conf = dir.resolve("haproxy.cfg");
            Files.writeString(conf, """
                    defaults
                      mode http
                      timeout connect 5s
                      timeout client 60s
                      timeout server 60s
                    frontend front
                      bind 127.0.0.1:%d
                      default_backend loomgate
                    backend loomgate
                      server one 127.0.0.1:%d proto h2
                    """.formatted(port, gate.baseUri().getPort()));
            aggregateThrough("HAProxy", List.of(haproxy.toString(), "-db", "-f", conf.toString()), dir, port, gate);
        }
    }

    @Test
    void overTlsTheJdkClientAndCurlNegotiateH2ByAlpn() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--tls-cert", SERVER.chainPem().toString(),
                "--tls-key", SERVER.keyPem().toString()));
             HttpClient client = HttpClient.newBuilder().sslContext(CA.clientContext()).build()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(gate.uri("/aggregate")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, r.version());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("\"status\":\"ok\""), r.body());

            String viaCurl = curl("--http2", "--cacert", CA.caPem().toString(), gate.uri("/health").toString());
            assertTrue(viaCurl.endsWith("\n2 200"), viaCurl);
            String h1 = curl("--http1.1", "--cacert", CA.caPem().toString(), gate.uri("/health").toString());
            assertTrue(h1.endsWith("\n1.1 200"), "a client that offers only http/1.1 gets it: " + h1);
        }
    }
}
