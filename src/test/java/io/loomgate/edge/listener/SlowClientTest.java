package io.loomgate.edge.listener;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.Background;
import io.loomgate.testing.TestClient;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Clients that stall: 300 connections that sent half a request head, and 300 that said nothing,
 * do not slow normal calls. (How long the server keeps them is --read-timeout; HardeningIT checks
 * that in its own JVM, since the JDK reads its timeouts once per JVM.)
 */
class SlowClientTest {

    @Test
    void stalledConnectionsDoNotSlowNormalCalls() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        // Stalled connections may hold their place for 2 min: a gateway they slowed would show it.
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--read-timeout", "120s"));
             TestClient client = new TestClient(gate.baseUri())) {
            var address = gate.server().address();
            for (int i = 0; i < 300; i++) {
                Socket s = new Socket(address.getAddress(), address.getPort());
                OutputStream out = s.getOutputStream();
                out.write("GET /block HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                stalled.add(s);
                stalled.add(new Socket(address.getAddress(), address.getPort()));  // says nothing at all
            }
            long t0 = System.nanoTime();
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                calls.add(Background.supply(() -> client.get("/block")));
            }
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                assertEquals(200, c.get().statusCode());
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 60_000, "20 concurrent /block calls beside 600 stalled connections took " + ms
                    + " ms, not the 2 min a stalled connection may hold its thread");
            System.out.println("20 concurrent /block calls beside 600 stalled connections: " + ms + " ms");
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
        }
    }
}
