package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.RawConnection;
import io.loomgate.testing.WebSocketEcho;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tunnel opens only for a real upgrade, and tunnels are bounded: an upstream that answers 101 to
 * anything, or with the wrong {@code Sec-WebSocket-Accept}, or with a protocol the client did not ask
 * for, gets the client a 502 and carries no byte; {@code --max-tunnels} refuses the next with 503;
 * a tunnel counts at its cost under {@code --max-connections}; a route's {@code tunnel.maxLifetime}
 * ends a busy one.
 */
class TunnelGuardTest {

    @TempDir
    Path dir;

    /** An upstream that answers 101 on every path, as httpbin's /status/101 does, and counts what comes after its head. */
    private static final class SwitchesAnything implements AutoCloseable {
        final AtomicInteger heads = new AtomicInteger();
        final AtomicLong bytesAfterHead = new AtomicLong();
        final AtomicInteger closed = new AtomicInteger();
        final ServerSocket server = io.loomgate.testing.RawServer.start(this::serve);

        SwitchesAnything() throws IOException {
        }

        private void serve(Socket s) {
            try (s) {
                InputStream in = s.getInputStream();
                String head = io.loomgate.testing.RawServer.head(in);
                if (head == null) {
                    return;
                }
                heads.incrementAndGet();
                String path = head.split(" ")[1];
                String answer = switch (path) {
                    case "/wrong-accept" -> "Upgrade: websocket\r\nSec-WebSocket-Accept: bm90IHRoZSByaWdodCBvbmU=\r\n";
                    case "/other-protocol" -> "Upgrade: h2c\r\n";
                    default -> "Upgrade: websocket\r\n";   // no Sec-WebSocket-Accept at all
                };
                OutputStream out = s.getOutputStream();
                out.write(("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n" + answer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                byte[] buf = new byte[1024];
                for (int n; (n = in.read(buf)) >= 0; ) {
                    bytesAfterHead.addAndGet(n);
                }
            } catch (IOException gone) {
                // the gateway closed it
            } finally {
                closed.incrementAndGet();
            }
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    private Loomgate gate(String url, String route, String... flags) throws Exception {
        Path file = dir.resolve("routes.json");
        Files.writeString(file, """
                {"upstreams": [{"id": "up", "kind": "http", "url": "%s/"}],
                 "routes": [{"path": "/api/*", "policy": "proxy", "upstreams": ["up"]%s}]}""".formatted(url, route));
        List<String> args = new ArrayList<>(List.of("--port", "0", "--routes", file.toString(), "--server", "loomgate"));
        args.addAll(List.of(flags));
        return Loomgate.start(CommandLine.config(args.toArray(String[]::new)));
    }

    private static String upgrade(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: loomgate\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    }

    @Test
    void aSwitchThatDoesNotAnswerTheClientsUpgradeIsA502AndCarriesNothing() throws Exception {
        try (SwitchesAnything up = new SwitchesAnything(); Loomgate gate = gate(up.url(), "")) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", gate.baseUri().getPort());
            int n = 0;
            for (String path : List.of("/api/status/101", "/api/wrong-accept", "/api/other-protocol")) {
                try (RawConnection c = new RawConnection(at)) {
                    // the handshake, and what an attacker sends next hoping it goes through a tunnel
                    RawConnection.Reply r = c.exchange(upgrade(path) + "GET /internal/admin HTTP/1.1\r\nHost: x\r\n\r\n", false);
                    assertEquals(502, r.status(), path + ": " + r.body());
                    assertFalse(r.body().contains("bm90"), "nothing the upstream sent is echoed");
                }
                n++;
                int expected = n;
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> up.closed.get() == expected);
            }
            assertEquals(3, up.heads.get(), "each handshake reached the upstream, and nothing after it");
            assertEquals(0, up.bytesAfterHead.get(), "no byte went through a tunnel");
        }
    }

    @Test
    void aPlainRequestAnswered101IsA502() throws Exception {
        try (SwitchesAnything up = new SwitchesAnything(); Loomgate gate = gate(up.url(), "");
             RawConnection c = new RawConnection(new InetSocketAddress("127.0.0.1", gate.baseUri().getPort()))) {
            RawConnection.Reply r = c.get("/api/status/101");
            assertEquals(502, r.status(), r.body());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> up.closed.get() == 1);
            assertEquals(0, up.bytesAfterHead.get());
        }
    }

    /**
     * The JDK's client, shut down at once when the test ends: its {@code close()} waits for every
     * WebSocket still open, so a test that failed before closing its own would hang there instead of failing.
     */
    private record Client(HttpClient http) implements AutoCloseable {
        @Override
        public void close() {
            http.shutdownNow();
        }
    }

    private static CompletableFuture<WebSocket> open(HttpClient client, Loomgate gate, CompletableFuture<Boolean> ended) {
        return client.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + gate.baseUri().getPort() + "/api/chat"),
                new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onClose(WebSocket w, int status, String reason) {
                        ended.complete(true);
                        return null;
                    }

                    @Override
                    public void onError(WebSocket w, Throwable error) {
                        ended.complete(true);
                    }
                });
    }

    private static long metric(Loomgate gate, String name) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            String text = http.send(java.net.http.HttpRequest.newBuilder(gate.uri("/metrics?format=prometheus")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            return text.lines().filter(l -> l.startsWith(name + " ")).mapToLong(l -> (long) Double.parseDouble(l.substring(l.indexOf(' ') + 1)))
                    .findFirst().orElse(-1);
        }
    }

    @Test
    void maxTunnelsRefusesTheNextWith503AndCountsIt() throws Exception {
        try (WebSocketEcho echo = WebSocketEcho.start(); Loomgate gate = gate(echo.url(""), "", "--max-tunnels", "2");
             Client clients = new Client(HttpClient.newHttpClient())) {
            HttpClient client = clients.http();
            WebSocket a = open(client, gate, new CompletableFuture<>()).get(60, TimeUnit.SECONDS);
            WebSocket b = open(client, gate, new CompletableFuture<>()).get(60, TimeUnit.SECONDS);
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> open(client, gate, new CompletableFuture<>()).get(60, TimeUnit.SECONDS));
            assertInstanceOf(WebSocketHandshakeException.class, refused.getCause());
            assertEquals(503, ((WebSocketHandshakeException) refused.getCause()).getResponse().statusCode());
            assertEquals(2, metric(gate, "loomgate_tunnels_open"));
            assertEquals(1, metric(gate, "loomgate_tunnels_refused_total"));
            a.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(60, TimeUnit.SECONDS);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> metric(gate, "loomgate_tunnels_open") == 1);
            WebSocket c = open(client, gate, new CompletableFuture<>()).get(60, TimeUnit.SECONDS);
            b.abort();
            c.abort();
        }
    }

    @Test
    void aTunnelCountsAtItsCostUnderMaxConnections() throws Exception {
        int extra = ServerLimits.TUNNEL_EXTRA;
        assertEquals(io.loomgate.config.ConnectionBudget.TUNNEL_EXTRA, extra, "the server counts a tunnel at the budget's price");
        assertTrue(extra >= 1, "a tunnel costs more than a connection");
        int max = 2 + 2 * extra + 2;   // two tunnels, at their cost, and room for two plain connections
        try (WebSocketEcho echo = WebSocketEcho.start(); Loomgate gate = gate(echo.url(""), "", "--max-connections", String.valueOf(max));
             Client clients = new Client(HttpClient.newHttpClient())) {
            HttpClient client = clients.http();
            WebSocket a = open(client, gate, new CompletableFuture<>()).get(60, TimeUnit.SECONDS);
            WebSocket b = open(client, gate, new CompletableFuture<>()).get(60, TimeUnit.SECONDS);
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", gate.baseUri().getPort());
            List<RawConnection> plain = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    RawConnection c = new RawConnection(at);
                    plain.add(c);
                    assertEquals(200, c.get("/health").status(), "connection " + (i + 1) + " is within the budget");
                }
                RawConnection over = new RawConnection(at);
                plain.add(over);
                RawConnection.Reply refused;
                try {
                    refused = over.get("/health");
                } catch (IOException reset) {
                    refused = new RawConnection.Reply(-1, java.util.Map.of(), "", false);
                }
                assertEquals(-1, refused.status(), "the next is over it: two tunnels took " + (2 + 2 * extra) + " places");
            } finally {
                for (RawConnection c : plain) {
                    c.close();
                }
                a.abort();
                b.abort();
            }
        }
    }

    @Test
    void aRoutesMaxLifetimeEndsATunnelThatIsNeverIdle() throws Exception {
        try (WebSocketEcho echo = WebSocketEcho.start();
             Loomgate gate = gate(echo.url(""), ", \"tunnel\": {\"idleTimeout\": \"1h\", \"maxLifetime\": \"500ms\"}");
             Client clients = new Client(HttpClient.newHttpClient())) {
            HttpClient client = clients.http();
            CompletableFuture<Boolean> ended = new CompletableFuture<>();
            WebSocket ws = open(client, gate, ended).get(60, TimeUnit.SECONDS);
            WebSocketEcho.Seen upgrade = echo.seen().getLast();
            long sent = 0;
            boolean sendFailed = false;
            while (!ended.isDone() && sent < 2_000) {   // busy all along: only its lifetime can end it
                try {
                    ws.sendText("ping", true).get(60, TimeUnit.SECONDS);
                } catch (ExecutionException closed) {
                    sendFailed = true;   // the client's side of the tunnel is closed under it
                    break;
                } catch (java.util.concurrent.TimeoutException stuck) {
                    break;
                }
                sent++;
                Thread.sleep(20);
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> upgrade.closedAt != 0);
            assertTrue(sent < 2_000, "it ended while still busy");
            // the client sees the end as its send failing, or as its listener told (the JDK's client may not tell both)
            assertTrue(sendFailed || ended.get(60, TimeUnit.SECONDS), "the client saw it end");
            ws.abort();
        }
    }
}
