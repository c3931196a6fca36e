package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.LocalTools;
import io.loomgate.testing.WebSocketEcho;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.util.concurrent.ExecutionException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A WebSocket through a proxy route, with the JDK's own WebSocket client and an echo upstream on
 * raw sockets: the upgrade reaches the upstream, the {@code 101} the client, messages go both ways,
 * and a close from the client reaches the upstream, which sees its connection end.
 */
class WebSocketProxyTest {

    private static WebSocketEcho echo;
    private static Loomgate gate;
    private static Path dir;

    @BeforeAll
    static void start() throws Exception {
        echo = WebSocketEcho.start();
        dir = Files.createTempDirectory("loomgate-websocket");
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "ws", "kind": "http", "url": "%s"}],
                 "routes": [{"path": "/ws/*", "policy": "proxy", "upstreams": ["ws"]}]}""".formatted(echo.url("/")));
        gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", routes.toString(), "--server", "loomgate"));
    }

    @AfterAll
    static void stop() throws Exception {
        gate.close();
        echo.close();
        LocalTools.deleteTree(dir);
    }

    @Test
    void messagesGoBothWaysAndACloseReachesTheUpstream() throws Exception {
        LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        WebSocket.Listener listener = new WebSocket.Listener() {
            private final StringBuilder text = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                text.append(data);
                if (last) {
                    received.add(text.toString());
                    text.setLength(0);
                }
                ws.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
                closed.complete(status);
                return null;
            }
        };
        int before = echo.seen().size();
        URI uri = URI.create("ws://127.0.0.1:" + gate.baseUri().getPort() + "/ws/chat?room=1");
        try (HttpClient client = HttpClient.newHttpClient()) {
            WebSocket ws = client.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
                    .buildAsync(uri, listener).get(60, TimeUnit.SECONDS);
            ws.sendText("hello", true).get(60, TimeUnit.SECONDS);
            assertEquals("hello", received.poll(10, TimeUnit.SECONDS));
            ws.sendText("x".repeat(10_000), true).get(60, TimeUnit.SECONDS);
            assertEquals("x".repeat(10_000), received.poll(10, TimeUnit.SECONDS), "a message larger than one read");
            WebSocketEcho.Seen upgrade = echo.seen().get(before);
            assertEquals("/chat?room=1", upgrade.path, "the path below the route's prefix, as a proxy forwards it");
            assertEquals("websocket", upgrade.headers.get("Upgrade").toLowerCase(java.util.Locale.ROOT));
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(60, TimeUnit.SECONDS);
            assertEquals(WebSocket.NORMAL_CLOSURE, closed.get(60, TimeUnit.SECONDS));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> upgrade.closedAt != 0);
        }
        assertTrue(echo.seen().size() > before);
    }

    @Test
    void onTheJdksServerTheUpgradeIsForwardedAsAPlainRequest() throws Exception {
        try (Loomgate jdk = Loomgate.start(CommandLine.config("--port", "0", "--routes", dir.resolve("routes.json").toString(),
                "--server", "jdk"));
             HttpClient client = HttpClient.newHttpClient()) {
            int before = echo.seen().size();
            URI uri = URI.create("ws://127.0.0.1:" + jdk.baseUri().getPort() + "/ws/chat");
            ExecutionException refused = assertThrows(ExecutionException.class, () -> client.newWebSocketBuilder()
                    .buildAsync(uri, new WebSocket.Listener() { }).get(60, TimeUnit.SECONDS));
            assertInstanceOf(WebSocketHandshakeException.class, refused.getCause());
            assertEquals(400, ((WebSocketHandshakeException) refused.getCause()).getResponse().statusCode(),
                    "the echo's answer to a request without Upgrade, passed back as it came");
            assertFalse(echo.seen().get(before).headers.containsKey("Upgrade"), "the JDK's server cannot switch: no upgrade is asked");
        }
    }

    @Test
    void aTunnelWithNothingToCarryEndsAfterTheIdleTimeout() throws Exception {
        try (Loomgate idle = Loomgate.start(CommandLine.config("--port", "0", "--routes", dir.resolve("routes.json").toString(),
                "--server", "loomgate", "--idle-timeout", "1s"));
             HttpClient client = HttpClient.newHttpClient()) {
            int before = echo.seen().size();
            CompletableFuture<Boolean> ended = new CompletableFuture<>();
            WebSocket ws = client.newWebSocketBuilder().buildAsync(
                    URI.create("ws://127.0.0.1:" + idle.baseUri().getPort() + "/ws/quiet"), new WebSocket.Listener() {
                        @Override
                        public CompletionStage<?> onClose(WebSocket w, int status, String reason) {
                            ended.complete(true);
                            return null;
                        }

                        @Override
                        public void onError(WebSocket w, Throwable error) {
                            ended.complete(true);
                        }
                    }).get(60, TimeUnit.SECONDS);
            WebSocketEcho.Seen upgrade = echo.seen().get(before);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> upgrade.closedAt != 0);
            assertTrue(ended.get(60, TimeUnit.SECONDS), "the client saw its connection end too");
            ws.abort();
        }
    }
}
