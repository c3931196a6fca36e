package io.loomgate.edge.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * loomgate's server runs a new connection on a thread started before the connection came (a spare,
 * {@link Spares}), not on one started for it: thread ids grow with each thread made, so a connection
 * served on a thread older than a marker made after the server answered once ran on a spare.
 */
class SpareConnectionsTest {

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aNewConnectionRunsOnAThreadStartedBeforeItCame() throws Exception {
        AtomicReference<Thread> servedOn = new AtomicReference<>();
        server = Provider.LOOMGATE.create();
        server.createContext("/", x -> {
            servedOn.set(Thread.currentThread());
            x.sendResponseHeaders(204, -1);
            try (OutputStream ignored = x.getResponseBody()) {
                // no body
            }
        });
        server.start();
        ask();   // answered, so the accepting thread has begun, and started its spares before its first accept
        long marker = Thread.ofVirtual().unstarted(() -> { }).threadId();

        // The spares park once the scheduler runs them; until then a connection gets a thread of its own.
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            ask();
            return servedOn.get().threadId() < marker;
        });
        Thread spare = servedOn.get();
        assertTrue(spare.isVirtual());
        assertEquals("loomgate-connection", spare.getName());
    }

    private void ask() throws IOException {
        try (Wire w = new Wire(server.getAddress())) {
            w.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(204, Wire.status(w.answer()));
        }
    }
}
