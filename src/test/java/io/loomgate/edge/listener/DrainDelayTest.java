package io.loomgate.edge.listener;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.Background;
import io.loomgate.testing.LogCapture;
import io.loomgate.testing.TestClient;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code --drain-delay}: on shutdown the probes turn 503 at once, new connections are still accepted
 * and served for the delay, and only then does the listener close; the final line names the phases.
 */
class DrainDelayTest {

    @Test
    void theServerStaysOpenNotReadyForTheDrainDelay() throws Exception {
        try (LogCapture log = LogCapture.of("loomgate");
             Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--drain-delay", "1500ms"))) {
            CompletableFuture<ShutdownReport> closing = Background.supply(gate::shutdown);
            await().atMost(Duration.ofSeconds(30)).until(() -> gate.server().lifecycle().isDraining());

            try (TestClient fresh = new TestClient(gate.baseUri())) {
                HttpResponse<String> ready = fresh.get("/readyz");
                assertEquals(503, ready.statusCode());
                assertEquals("{\"status\":\"DRAINING\"}", ready.body());
                assertEquals(503, fresh.get("/health").statusCode());
                HttpResponse<String> work = fresh.get("/cache?delay=cache:20ms");
                assertEquals(200, work.statusCode(), "a request on a new connection is still served: " + work.body());
                assertEquals("close", work.headers().firstValue("Connection").orElse(""),
                        "and its connection is closed after it, so no keep-alive outlives the delay");
            }

            ShutdownReport report = closing.get(60, TimeUnit.SECONDS);
            assertTrue(report.drainDelay().toMillis() >= 1_500, report.toString());
            assertTrue(report.took().compareTo(report.drainDelay()) >= 0, report.toString());
            try (TestClient late = new TestClient(gate.baseUri())) {
                IOException refused = assertThrows(IOException.class, () -> late.sendChecked("GET", "/health"));
                assertTrue(refused instanceof ConnectException || refused.getCause() instanceof ConnectException
                        || String.valueOf(refused.getMessage()).contains("refused"), refused.toString());
            }
            assertTrue(log.lines().stream().anyMatch(l -> l.matches(
                    ".*stopped: served \\d+ requests, 0 cut off after the grace period; not ready at once, \\d+ ms drain delay"
                            + " still serving, then \\d+ ms to stop accepting and drain; shutdown took \\d+ ms")),
                    log.lines().toString());
        }
    }

    @Test
    void withoutADelayTheListenerClosesAtOnceAsBefore() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0"))) {
            ShutdownReport report = gate.shutdown();
            assertEquals(Duration.ZERO, report.drainDelay(), "no delay was asked for: " + report);
            try (TestClient late = new TestClient(gate.baseUri())) {
                assertThrows(IOException.class, () -> late.sendChecked("GET", "/health"));
            }
        }
    }
}
