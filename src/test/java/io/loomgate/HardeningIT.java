package io.loomgate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ChildProcess;
import io.loomgate.testing.TestClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/** Shutdown under load and the connection timeouts, in a real child process with real signals. */
class HardeningIT {

    private static URI started(ChildProcess p) throws InterruptedException {
        Matcher m = MainIT.LISTENING.matcher(p.awaitStdout(l -> MainIT.LISTENING.matcher(l).matches(), Duration.ofSeconds(30)));
        assertTrue(m.matches());
        return URI.create(m.group(1));
    }

    @SuppressWarnings("unchecked")
    private static long dbInFlight(TestClient client) {
        Map<String, Object> services = (Map<String, Object>) client.getJson("/metrics?format=json").get("services");
        return (Long) ((Map<String, Object>) services.get("db")).get("inFlight");
    }

    @Test
    void sigtermUnderLoadLosesNothing() throws Exception {
        try (ChildProcess p = MainIT.jar("--port", "0", "--shutdown-grace", "120s")) {
            URI base = started(p);
            try (TestClient client = new TestClient(base)) {
                List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    inFlight.add(client.http().sendAsync(
                            java.net.http.HttpRequest.newBuilder(URI.create(base + "/block?delay=db:1500ms")).build(),
                            HttpResponse.BodyHandlers.ofString()));
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> dbInFlight(client) == 100);

                long signalled = System.nanoTime();
                p.terminate();
                await().atMost(Duration.ofSeconds(30)).until(() -> p.stderr().stream().anyMatch(l -> l.contains("draining")));
                int late = lateRequest(base);
                assertTrue(late == -1 || late == 503, "a request during the drain is refused or gets 503, got " + late);

                for (CompletableFuture<HttpResponse<String>> f : inFlight) {
                    HttpResponse<String> r = f.get();
                    assertEquals(200, r.statusCode(), r.body());
                }
                assertEquals(0, p.awaitExit(Duration.ofSeconds(90)));
                long exitMs = (System.nanoTime() - signalled) / 1_000_000;
                assertTrue(exitMs < 60_000, "the work ended after ~1.5 s, so shutdown took " + exitMs + " ms, not the 2 min grace");
                assertTrue(p.stderr().stream().anyMatch(l -> l.contains("0 cut off")), p.stderr().toString());
                System.out.println("SIGTERM with 100 requests of 1.5 s in flight: all 200, late request -> " + late
                        + ", exit 0 after " + exitMs + " ms");
            }
        }
    }

    /** A new connection during the drain: -1 if refused or closed, else the status. */
    private static int lateRequest(URI base) {
        try (TestClient fresh = new TestClient(base)) {
            return fresh.sendChecked("GET", "/block?delay=db:10ms").statusCode();
        } catch (IOException refused) {
            return -1;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void stalledAndIdleConnectionsAreClosedByTheTimeouts() throws Exception {
        try (ChildProcess p = MainIT.jar("--port", "0", "--read-timeout", "1s", "--idle-timeout", "1s")) {
            URI base = started(p);
            long partial = millisUntilClosed(base, "GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ");
            long silent = millisUntilClosed(base, "");
            long keptAlive = millisUntilClosed(base, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
            // The JDK checks these limits once a second: a connection goes between 1 and 2 s (plus scheduling).
            assertTrue(partial <= 4_000, "a half-sent request head was cut off after " + partial + " ms");
            assertTrue(silent <= 4_000, "a silent connection was closed after " + silent + " ms");
            assertTrue(keptAlive <= 4_000, "an idle keep-alive connection was closed after " + keptAlive + " ms");
            System.out.println("with --read-timeout 1s --idle-timeout 1s: half-sent head closed after " + partial
                    + " ms, silent connection after " + silent + " ms, idle keep-alive after " + keptAlive + " ms");
        }
    }

    /** Sends {@code bytes}, then waits (up to 15 s) for the server to close; returns the milliseconds that took. */
    private static long millisUntilClosed(URI base, String bytes) throws IOException {
        try (Socket s = new Socket(base.getHost(), base.getPort())) {
            s.setSoTimeout(15_000);
            long t0 = System.nanoTime();
            s.getOutputStream().write(bytes.getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            try {
                while (in.read() >= 0) {
                    // a response, if any, is read and ignored; we wait for the close
                }
            } catch (SocketException reset) {
                // closed by reset: also closed
            }
            return (System.nanoTime() - t0) / 1_000_000;
        }
    }
}
