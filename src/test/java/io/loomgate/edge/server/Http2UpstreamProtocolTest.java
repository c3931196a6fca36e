package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which protocol an http upstream is spoken to in: {@code "protocol": "h2"} over TLS with h2 chosen by
 * ALPN, {@code auto} (the default for {@code https://}) speaking what the upstream's ALPN chooses,
 * {@code h2c} to nginx (written elsewhere), and a protocol that does not fit the URL refused at start.
 */
class Http2UpstreamProtocolTest {

    /** {@code server} started over TLS with {@code context}, answering every request with the protocol it came in. */
    private static com.sun.net.httpserver.HttpsServer protocolEcho(com.sun.net.httpserver.HttpsServer server, javax.net.ssl.SSLContext context) {
        return protocolEcho(server, new com.sun.net.httpserver.HttpsConfigurator(context));
    }

    private static com.sun.net.httpserver.HttpsServer protocolEcho(com.sun.net.httpserver.HttpsServer server,
                                                                   com.sun.net.httpserver.HttpsConfigurator configurator) {
        server.setHttpsConfigurator(configurator);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getProtocol().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }

    @Test
    void overTlsTheUpstreamIsSpokenToInH2ChosenByAlpn(@TempDir Path dir) throws Exception {
        io.loomgate.testing.TestCertificates ca = io.loomgate.testing.TestCertificates.ca();
        com.sun.net.httpserver.HttpsServer tls = protocolEcho(new LoomgateServers(ServerLimits.DEFAULTS)
                .createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0), ca.issue("h2-upstream", "dns:localhost,ip:127.0.0.1").serverContext());
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "h2", "kind": "http", "url": "https://127.0.0.1:%d/", "protocol": "h2", "caFile": "%s"}],
                 "routes": [{"path": "/up/*", "policy": "proxy", "upstreams": ["h2"]}]}"""
                .formatted(tls.getAddress().getPort(), ca.caPem()));
        try (Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--routes", routes.toString()));
             HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(gate.uri("/up/x")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("HTTP/2.0", r.body(), "the upstream's exchange was an HTTP/2 stream");
        } finally {
            tls.stop(0);
        }
    }

    @Test
    void aProtocolThatDoesNotFitTheUrlIsRefusedWithTheReason(@TempDir Path dir) throws Exception {
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "h2", "kind": "http", "url": "http://127.0.0.1:1/", "protocol": "h2"}],
                 "routes": [{"path": "/up/*", "policy": "proxy", "upstreams": ["h2"]}]}""");
        io.loomgate.config.UsageException e = org.junit.jupiter.api.Assertions.assertThrows(io.loomgate.config.UsageException.class,
                () -> Loomgate.start(CommandLine.config("--port", "0", "--routes", routes.toString())));
        assertTrue(e.getMessage().contains("h2 needs https:// URLs"), e.getMessage());
        Files.writeString(routes, """
                {"upstreams": [{"id": "h2", "kind": "http", "url": "http://127.0.0.1:1/", "protocol": "h3"}],
                 "routes": [{"path": "/up/*", "policy": "proxy", "upstreams": ["h2"]}]}""");
        e = org.junit.jupiter.api.Assertions.assertThrows(io.loomgate.config.UsageException.class,
                () -> Loomgate.start(CommandLine.config("--port", "0", "--routes", routes.toString())));
        assertTrue(e.getMessage().contains("must be http/1.1, h2, h2c or auto"), e.getMessage());
    }

    /** nginx (written elsewhere) as the h2c upstream: its {@code $server_protocol} says the request came over HTTP/2. */
    @Test
    void nginxBehindIsSpokenToInH2c(@TempDir Path dir) throws Exception {
        Path nginx = io.loomgate.testing.LocalTools.installed("nginx").orElseThrow(() -> new AssertionError(
                "nginx is not installed, and this test puts it behind loomgate (install it: sudo apt-get install nginx-light)"));
        int port = io.loomgate.testing.LocalTools.freePort();
        Path conf = io.loomgate.testing.LocalTools.nginxConfig(dir,
                "server { listen 127.0.0.1:%d http2; location / { return 200 \"nginx saw $server_protocol $request_uri\"; } }".formatted(port));
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "nginx", "kind": "http", "url": "http://127.0.0.1:%d/", "protocol": "h2c"}],
                 "routes": [{"path": "/up/*", "policy": "proxy", "upstreams": ["nginx"]}]}""".formatted(port));
        try (io.loomgate.testing.ChildProcess n = io.loomgate.testing.ChildProcess.start(
                     List.of(nginx.toString(), "-g", "daemon off;", "-p", dir.toString(), "-c", conf.toString()), java.util.Map.of(), dir);
             Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--routes", routes.toString()));
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<String> r = null;
            for (int i = 0; i < 300 && (r == null || r.statusCode() != 200); i++) {
                assertTrue(n.isAlive(), "nginx exited: " + n.stderr());
                r = client.send(HttpRequest.newBuilder(gate.uri("/up/hello?x=1")).build(), HttpResponse.BodyHandlers.ofString());
                Thread.sleep(r.statusCode() == 200 ? 0 : 50);
            }
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("nginx saw HTTP/2.0 /hello?x=1", r.body());
        }
    }

    /**
     * {@code auto}, the default for {@code https://}: ALPN offers h2 and HTTP/1.1 and the upstream
     * chooses. loomgate's TLS server chooses h2; the JDK's (no ALPN) leaves HTTP/1.1, which the request
     * then takes on the very connection whose handshake chose it, and so do the next.
     */
    @Test
    void autoIsTheDefaultForHttpsAndSpeaksWhatTheUpstreamsAlpnChooses(@TempDir Path dir) throws Exception {
        io.loomgate.testing.TestCertificates ca = io.loomgate.testing.TestCertificates.ca();
        javax.net.ssl.SSLContext context = ca.issue("auto-upstream", "dns:localhost,ip:127.0.0.1").serverContext();
        com.sun.net.httpserver.HttpsServer ours = protocolEcho(new LoomgateServers(ServerLimits.DEFAULTS)
                .createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0), context);
        java.util.concurrent.atomic.AtomicInteger handshakes = new java.util.concurrent.atomic.AtomicInteger();
        com.sun.net.httpserver.HttpsServer jdks = protocolEcho(com.sun.net.httpserver.HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0),
                new com.sun.net.httpserver.HttpsConfigurator(context) {
                    @Override
                    public void configure(com.sun.net.httpserver.HttpsParameters params) {
                        handshakes.incrementAndGet();   // the JDK's server configures each connection it accepts
                        super.configure(params);
                    }
                });
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "ours", "kind": "http", "url": "https://127.0.0.1:%d/", "caFile": "%s"},
                               {"id": "jdks", "kind": "http", "url": "https://127.0.0.1:%d/", "caFile": "%s"},
                               {"id": "plain", "kind": "http", "url": "https://127.0.0.1:%d/", "protocol": "http/1.1", "caFile": "%s"}],
                 "routes": [{"path": "/ours/*", "policy": "proxy", "upstreams": ["ours"]},
                            {"path": "/jdks/*", "policy": "proxy", "upstreams": ["jdks"]},
                            {"path": "/plain/*", "policy": "proxy", "upstreams": ["plain"]}]}"""
                .formatted(ours.getAddress().getPort(), ca.caPem(), jdks.getAddress().getPort(), ca.caPem(),
                        ours.getAddress().getPort(), ca.caPem()));
        try (Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--routes", routes.toString()));
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            assertEquals("HTTP/2.0", client.send(HttpRequest.newBuilder(gate.uri("/ours/x")).build(), HttpResponse.BodyHandlers.ofString()).body());
            assertEquals("HTTP/1.1", client.send(HttpRequest.newBuilder(gate.uri("/plain/x")).build(), HttpResponse.BodyHandlers.ofString()).body(),
                    "\"protocol\": \"http/1.1\" keeps an https:// upstream on HTTP/1.1 though it offers h2");
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(gate.uri("/jdks/x")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("HTTP/1.1", r.body());
            }
            assertEquals(1, handshakes.get(), "the connection whose ALPN chose HTTP/1.1 carried the requests; none was wasted");
            String jdk = ":" + jdks.getAddress().getPort() + " ";
            assertEquals(1, Http2UpstreamTest.metric(client, gate, "loomgate_upstream_connections_opened_total", "protocol=\"http/1.1\"", jdk), "/metrics agrees");
            assertEquals(0, Http2UpstreamTest.metric(client, gate, "loomgate_upstream_connections_opened_total", "protocol=\"h2\"", jdk));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                    .until(() -> Http2UpstreamTest.metric(client, gate, "loomgate_upstream_connections_idle", jdk) == 1);
        } finally {
            ours.stop(0);
            jdks.stop(0);
        }
    }
}
