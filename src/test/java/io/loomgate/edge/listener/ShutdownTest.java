package io.loomgate.edge.listener;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.LogCapture;
import io.loomgate.testing.Background;
import io.loomgate.testing.TestClient;
import io.loomgate.testing.TestRoutes;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Graceful shutdown: in-flight work finishes, new work is refused, and close takes only as long as needed. */
class ShutdownTest {

    private static final int IN_FLIGHT = 10;

    @Test
    void inFlightRequestsCompleteAndNewOnesAreRefused() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--shutdown-grace", "120s"), TestRoutes.all());
             TestClient client = new TestClient(gate.baseUri());
             TestClient lateClient = new TestClient(gate.baseUri())) {
            assertEquals(200, lateClient.get("/health").statusCode(), "opens a keep-alive connection for later");

            List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
            for (int i = 0; i < IN_FLIGHT; i++) {
                slow.add(Background.supply(() -> client.get("/test/slow?ms=800")));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> gate.server().inFlight() == IN_FLIGHT);

            CompletableFuture<ShutdownReport> closing = Background.supply(gate::shutdown);
            await().atMost(Duration.ofSeconds(30)).until(() -> gate.server().lifecycle().isDraining());

            // On the kept-alive connection the server still reads requests, and answers DRAINING.
            HttpResponse<String> health = lateClient.get("/health");
            assertEquals(503, health.statusCode());
            assertEquals("DRAINING", TestClient.json(health).get("status"));
            assertRefused(gate);

            for (CompletableFuture<HttpResponse<String>> f : slow) {
                HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
                assertEquals(200, r.statusCode(), r.body());
            }
            ShutdownReport report = closing.get(60, TimeUnit.SECONDS);
            assertEquals(0, report.cutOff(), "every request in flight ran to its end within the grace");
            assertTrue(report.served() >= IN_FLIGHT + 2, report.toString());
            assertEquals(Lifecycle.State.STOPPED, gate.server().lifecycle().state());
        }
    }

    /** A new connection is refused outright, or, in the instant before the listener closes, answered 503. */
    private static void assertRefused(Loomgate gate) {
        try (TestClient fresh = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = fresh.sendChecked("GET", "/test/slow?ms=0");
            assertEquals(503, r.statusCode(), "a request that arrives during the drain must not be served: " + r.body());
        } catch (IOException refused) {
            // connection refused or closed: what we want
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** A client still sending its request head has asked nothing yet: it must not hold shutdown up. */
    @Test
    void stalledClientsDoNotHoldUpShutdownNorCountAsCutOff() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--shutdown-grace", "120s"), TestRoutes.all());
             TestClient client = new TestClient(gate.baseUri())) {
            var address = gate.server().address();
            for (int i = 0; i < 20; i++) {
                Socket s = new Socket(address.getAddress(), address.getPort());
                s.getOutputStream().write("GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
                s.setSoTimeout(5_000);
                stalled.add(s);
            }
            CompletableFuture<HttpResponse<String>> slow = Background.supply(() -> client.get("/test/slow?ms=500"));
            // The JDK's server counts a head being read as in flight; loomgate's reads heads on the
            // connection's thread, and counts its connections instead.
            await().atMost(Duration.ofSeconds(30)).until(() -> gate.server().serverStats()
                    .map(s -> s.open() == 21 && gate.server().inFlight() == 1)
                    .orElseGet(() -> gate.server().inFlight() == 21));

            ShutdownReport report = gate.shutdown();
            assertEquals(200, slow.get(60, TimeUnit.SECONDS).statusCode(), "the real request was served");
            assertEquals(0, report.cutOff(), "nothing that had been asked was cut off");
            assertTrue(report.took().toSeconds() < 60, "shutdown waited for the 500 ms request only, not the 2 min grace: " + report.took());
            for (Socket s : stalled) {
                assertEquals(-1, s.getInputStream().read(), "a stalled connection is simply closed");
            }
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
        }
    }

    /** Platform mode: requests that arrived before SIGTERM but wait for a pool thread are in flight, and served. */
    @Test
    void requestsQueuedForAPoolThreadBeforeShutdownAreServed() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--threads", "platform", "--pool", "2",
                "--shutdown-grace", "120s"), TestRoutes.all());
             TestClient client = new TestClient(gate.baseUri())) {
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                calls.add(Background.supply(() -> client.get("/test/slow?ms=400")));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> gate.server().pool().getQueue().size() == 4);

            ShutdownReport report = gate.shutdown();
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                HttpResponse<String> r = c.get(60, TimeUnit.SECONDS);
                assertEquals(200, r.statusCode(), "queued before shutdown, so served: " + r.body());
            }
            assertEquals(0, report.cutOff());
        }
    }

    @Test
    void closeReturnsAtOnceWhenNothingIsInFlight() throws Exception {
        Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--shutdown-grace", "120s"));
        try (TestClient client = new TestClient(gate.baseUri())) {
            assertEquals(200, client.get("/health").statusCode());
        }
        ShutdownReport report = gate.shutdown();
        assertTrue(report.took().toSeconds() < 60, "an idle server closed in " + report.took() + ", not after the 2 min grace");
        assertEquals(report, gate.shutdown(), "shutdown is idempotent");
    }

    @Test
    void requestsBeyondTheGracePeriodAreCutOff() throws Exception {
        try (LogCapture log = LogCapture.of("loomgate");
             Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--shutdown-grace", "300ms"), TestRoutes.all());
             TestClient client = new TestClient(gate.baseUri())) {
            CompletableFuture<Integer> stuck = Background.supply(() -> {
                try {
                    return client.sendChecked("GET", "/test/slow?ms=120000").statusCode();
                } catch (IOException closed) {
                    return -1;
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> gate.server().inFlight() == 1);

            ShutdownReport report = gate.shutdown();
            assertEquals(1, report.cutOff());
            assertTrue(report.took().toSeconds() < 60, "took " + report.took() + ", not the request's 2 min");
            // Interrupted, the request's own thread answers 503; a request that was not would only see its connection closed.
            int status = stuck.get(60, TimeUnit.SECONDS);
            assertEquals(503, status, "the cut-off request was interrupted and answered");
            assertTrue(log.lines().stream().anyMatch(l -> l.contains("1 cut off")), log.lines().toString());
        }
    }

    @TempDir
    java.nio.file.Path dir;

    @Test
    void theCallsOfACutOffRequestSayTheGatewayShutDownAndTheUpstreamSeesThemAbandoned() throws Exception {
        try (io.loomgate.testing.ApiUpstream api = io.loomgate.testing.ApiUpstream.start().hold("/slow");
             io.loomgate.testing.FileGate g = io.loomgate.testing.FileGate.start(dir,
                     "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/\"}",
                     List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"], \"timeout\": \"60s\"}"),
                     "--shutdown-grace", "300ms", "--max-timeout", "60s")) {
            CompletableFuture<Integer> proxied = Background.supply(() -> {
                try {
                    return g.client().sendChecked("GET", "/p/slow").statusCode();
                } catch (IOException closed) {
                    return -1;
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            api.await("start /slow");
            await().atMost(Duration.ofSeconds(30)).until(() -> g.gate().server().inFlight() == 1);

            assertEquals(1, g.gate().shutdown().cutOff());
            api.await("closed /slow");   // the upstream saw its request abandoned
            proxied.get(60, TimeUnit.SECONDS);
            io.loomgate.core.call.UpstreamId id = io.loomgate.core.call.UpstreamId.of("api");
            await().atMost(Duration.ofSeconds(30)).until(() -> !g.gate().upstreams().calls().recentFailures(id, 5).isEmpty());
            assertEquals(new io.loomgate.core.call.Outcome.Cancelled(io.loomgate.http.StopReason.SHUTDOWN),
                    g.gate().upstreams().calls().recentFailures(id, 5).getFirst().outcome(),
                    "the call says why it stopped: not a sibling, not the client");
        }
    }
}
