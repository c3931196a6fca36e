package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.http.Headers;
import io.loomgate.http.Trailers;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A proxy route whose upstream says {@code "protocol": "h2c"}: requests go upstream as HTTP/2
 * streams on a shared connection, bodies both ways, trailers back, and a call the client abandons
 * is reset at the upstream (whose handler sees its stream cancelled), as is one whose gRPC deadline
 * passes. The upstream is loomgate's own HTTP/2 server with handlers written here. Which protocol an
 * upstream is spoken to in (TLS with ALPN, nginx in h2c) is {@link Http2UpstreamProtocolTest}'s; a
 * misbehaving upstream is in {@link Http2UpstreamStrictTest}, grpc-go's examples in {@link GrpcExamplesTest}.
 */
class Http2UpstreamTest {

    /** What the upstream saw of one request. */
    record Seen(String protocol, String method, String path, String body, String te, int remotePort, String grpcTimeout) {
    }

    static HttpServer upstream(BlockingQueue<Seen> seen, CountDownLatch slowStarted, AtomicReference<String> slowEnded)
            throws IOException {
        HttpServer server = new LoomgateServers(ServerLimits.DEFAULTS).createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                seen.add(new Seen(exchange.getProtocol(), exchange.getRequestMethod(), exchange.getRequestURI().getPath(), body,
                        exchange.getRequestHeaders().getFirst("te"), exchange.getRemoteAddress().getPort(),
                        exchange.getRequestHeaders().getFirst("grpc-timeout")));
                switch (exchange.getRequestURI().getPath()) {
                    case "/slow" -> slow(exchange, slowStarted, slowEnded);
                    case "/grpc" -> grpc(exchange);
                    default -> {
                        byte[] answer = ("echo:" + body).getBytes(StandardCharsets.UTF_8);
                        exchange.getResponseHeaders().add("content-type", "text/plain");
                        exchange.sendResponseHeaders(200, answer.length);
                        exchange.getResponseBody().write(answer);
                    }
                }
            }
        });
        server.start();
        return server;
    }

    private static void slow(HttpExchange exchange, CountDownLatch started, AtomicReference<String> ended) throws IOException {
        started.countDown();
        try {
            Thread.sleep(120_000);
            ended.set("finished");
        } catch (InterruptedException e) {
            ended.set("cancelled");   // loomgate's server interrupts a stream's handler when the stream is reset
        }
        exchange.sendResponseHeaders(200, -1);
    }

    /** A gRPC-shaped answer: a body of unknown length, then grpc-status in trailers. */
    private static void grpc(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("content-type", "application/grpc");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        out.write(new byte[] {0, 0, 0, 0, 2, 'h', 'i'});
        out.flush();
        ((Trailers) exchange).trailers(Headers.of("grpc-status", "0", "grpc-message", "fine"));
    }

    static Loomgate gateway(Path dir, HttpServer upstream) throws Exception {
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "h2", "kind": "http", "url": "http://127.0.0.1:%d/", "protocol": "h2c"}],
                 "routes": [{"path": "/up/*", "policy": "proxy", "upstreams": ["h2"], "timeout": "120s"}]}"""
                .formatted(upstream.getAddress().getPort()));
        return Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--max-timeout", "120s",
                "--routes", routes.toString()));
    }

    @Test
    void requestsGoUpstreamAsStreamsOfOneSharedConnection(@TempDir Path dir) throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        HttpServer up = upstream(seen, new CountDownLatch(1), new AtomicReference<>());
        try (Loomgate gate = gateway(dir, up); HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> answers = new java.util.ArrayList<>();
            for (int i = 0; i < 8; i++) {
                answers.add(client.sendAsync(HttpRequest.newBuilder(gate.uri("/up/echo")).POST(HttpRequest.BodyPublishers.ofString("body " + i))
                        .build(), HttpResponse.BodyHandlers.ofString()));
            }
            Set<String> bodies = ConcurrentHashMap.newKeySet();
            for (var a : answers) {
                HttpResponse<String> r = a.get(60, TimeUnit.SECONDS);
                assertEquals(200, r.statusCode(), r.body());
                bodies.add(r.body());
            }
            assertEquals(8, bodies.size(), "each answer is its own request's: " + bodies);
            Set<Integer> ports = ConcurrentHashMap.newKeySet();
            for (int i = 0; i < 8; i++) {
                Seen s = seen.poll(30, TimeUnit.SECONDS);
                assertEquals("HTTP/2.0", s.protocol());
                assertEquals("POST", s.method());
                assertEquals("trailers", s.te());
                assertTrue(bodies.contains("echo:" + s.body()), s.body());
                ports.add(s.remotePort());
            }
            assertEquals(1, ports.size(), "every stream on one connection: " + ports);
            assertEquals(1, metric(client, gate, "loomgate_upstream_connections_opened_total", "protocol=\"h2\""),
                    "/metrics counts the one HTTP/2 connection opened");
            assertEquals(0, metric(client, gate, "loomgate_upstream_connections_opened_total", "protocol=\"http/1.1\""));
            assertEquals(1, metric(client, gate, "loomgate_upstream_http2_connections", ""), "and sees it open");
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                    .until(() -> metric(client, gate, "loomgate_upstream_http2_streams", "") == 0);
        } finally {
            up.stop(0);
        }
    }

    @Test
    void aGrpcAnswersTrailersComeBackAndTheDeadlineGoesUpstream(@TempDir Path dir) throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        HttpServer up = upstream(seen, new CountDownLatch(1), new AtomicReference<>());
        try (Loomgate gate = gateway(dir, up);
             H2Wire w = new H2Wire(new InetSocketAddress("127.0.0.1", gate.baseUri().getPort()))) {
            w.request(1, "POST", "/up/grpc", false, "content-type", "application/grpc", "te", "trailers", "grpc-timeout", "30S");
            w.send(new io.loomgate.http2.Frame.Data(1, new byte[] {0, 0, 0, 0, 0}, true, 5));
            H2Wire.Answer a = w.answer(1);
            assertEquals(200, a.status());
            assertEquals("0", a.fields().get("grpc-status"), "the upstream's trailers reach the client: " + a.fields());
            assertEquals("fine", a.fields().get("grpc-message"));
            assertEquals(7, a.body().length);
            Seen s = seen.poll(30, TimeUnit.SECONDS);
            long left = io.loomgate.grpc.GrpcTimeout.parse(s.grpcTimeout()).orElseThrow().toMillis();
            assertTrue(left > 0 && left <= 30_000, "the time left, not more than the client's 30 s: " + s.grpcTimeout());
        } finally {
            up.stop(0);
        }
    }

    @Test
    void aCallTheClientAbandonsIsResetAtTheUpstream(@TempDir Path dir) throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<String> ended = new AtomicReference<>();
        HttpServer up = upstream(seen, started, ended);
        try (Loomgate gate = gateway(dir, up);
             H2Wire w = new H2Wire(new InetSocketAddress("127.0.0.1", gate.baseUri().getPort()))) {
            w.request(1, "GET", "/up/slow", true);
            assertTrue(started.await(60, TimeUnit.SECONDS), "the upstream got the call");
            w.send(new io.loomgate.http2.Frame.RstStream(1, io.loomgate.http2.ErrorCode.CANCEL));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() -> ended.get() != null);
            assertEquals("cancelled", ended.get(), "the upstream's stream was reset, its handler interrupted");
            w.request(3, "GET", "/up/echo", true);
            assertEquals(200, w.answer(3).status(), "the shared upstream connection goes on");
            Seen first = seen.poll(30, TimeUnit.SECONDS);
            Seen second = seen.poll(30, TimeUnit.SECONDS);
            assertEquals(first.remotePort(), second.remotePort(), "the reset stream did not cost the connection");
            assertNotEquals(null, second);
            try (HttpClient client = HttpClient.newHttpClient()) {
                assertTrue(metric(client, gate, "loomgate_upstream_http2_streams_reset_total", "") >= 1, "/metrics counts the stream reset");
                assertEquals(1, metric(client, gate, "loomgate_upstream_connections_opened_total", "protocol=\"h2\""));
            }
        } finally {
            up.stop(0);
        }
    }

    /**
     * A hedge's loser over HTTP/2: the first try hangs, the backup answers, and the first's stream is
     * reset (its handler interrupted) while the connection both shared goes on.
     */
    @Test
    void aHedgesLoserIsResetAndItsConnectionGoesOn(@TempDir Path dir) throws Exception {
        java.util.concurrent.atomic.AtomicInteger tries = new java.util.concurrent.atomic.AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<String> ended = new AtomicReference<>();
        Set<Integer> ports = ConcurrentHashMap.newKeySet();
        HttpServer up = new LoomgateServers(ServerLimits.DEFAULTS).createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0);
        up.createContext("/", exchange -> {
            try (exchange) {
                ports.add(exchange.getRemoteAddress().getPort());
                if (tries.incrementAndGet() == 1) {
                    slow(exchange, started, ended);   // the primary: it waits to be cancelled
                } else {
                    byte[] answer = "{\"from\":\"backup\"}".getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("content-type", "application/json");
                    exchange.sendResponseHeaders(200, answer.length);
                    exchange.getResponseBody().write(answer);
                }
            }
        });
        up.start();
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "h2", "kind": "http", "url": "http://127.0.0.1:%d/item", "protocol": "h2c"}],
                 "routes": [{"path": "/hedged", "policy": "hedge", "upstreams": ["h2"], "hedge": {"after": "1ms"}, "timeout": "120s"}]}"""
                .formatted(up.getAddress().getPort()));
        try (Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--max-timeout", "120s",
                "--routes", routes.toString()));
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(gate.uri("/hedged")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("backup"), r.body());
            assertTrue(started.await(60, TimeUnit.SECONDS));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() -> ended.get() != null);
            assertEquals("cancelled", ended.get(), "the loser's stream was reset at the upstream, its handler interrupted");
            assertEquals(1, ports.size(), "both tries on one connection, which the reset did not cost: " + ports);
            assertTrue(metric(client, gate, "loomgate_upstream_http2_streams_reset_total", "") >= 1);
            assertEquals(1, metric(client, gate, "loomgate_upstream_connections_opened_total", "protocol=\"h2\""));
        } finally {
            up.stop(0);
        }
    }

    /** The value of the one sample of {@code name} whose labels hold {@code labels}, from the gateway's Prometheus metrics. */
    static double metric(HttpClient client, Loomgate gate, String name, String... labels) throws Exception {
        String all = client.send(HttpRequest.newBuilder(gate.uri("/metrics?format=prometheus")).build(), HttpResponse.BodyHandlers.ofString()).body();
        List<String> lines = all.lines().filter(l -> l.startsWith(name + "{") && java.util.Arrays.stream(labels).allMatch(l::contains)).toList();
        assertEquals(1, lines.size(), name + " " + List.of(labels) + " in:\n" + all);
        String line = lines.getFirst();
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    @Test
    void aGrpcDeadlineEndsTheCallBothWays(@TempDir Path dir) throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<String> ended = new AtomicReference<>();
        HttpServer up = upstream(seen, started, ended);
        try (Loomgate gate = gateway(dir, up);
             H2Wire w = new H2Wire(new InetSocketAddress("127.0.0.1", gate.baseUri().getPort()))) {
            w.request(1, "POST", "/up/slow", true, "content-type", "application/grpc", "te", "trailers", "grpc-timeout", "1S");
            H2Wire.Answer a = w.answer(1);
            assertEquals(200, a.status());
            assertEquals("4", a.fields().get("grpc-status"), "DEADLINE_EXCEEDED to the client: " + a.fields());
            assertTrue(started.await(60, TimeUnit.SECONDS));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() -> ended.get() != null);
            assertEquals("cancelled", ended.get(), "the upstream's stream was reset at the deadline");
            w.request(3, "GET", "/up/echo", true);
            assertEquals(200, w.answer(3).status());
            Seen slow = seen.poll(30, TimeUnit.SECONDS);
            assertTrue(slow.grpcTimeout() != null, "the upstream was told the time left");
            assertEquals(slow.remotePort(), seen.poll(30, TimeUnit.SECONDS).remotePort(),
                    "a stream reset, not the connection closed: the next request comes on the same one");
        } finally {
            up.stop(0);
        }
    }
}
