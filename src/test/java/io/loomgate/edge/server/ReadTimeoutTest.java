package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.config.AddressRanges;
import io.loomgate.net.IoWatchdog;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The server's reads wait untimed, and the watchdog's tick ends one that waited too long
 * ({@link TimedReads}): a head sent in part is closed after the read timeout and counted, an idle
 * connection after the idle timeout, and the watch's read during a request that runs longer than
 * the idle timeout is not ended by it. Each waits for what the server does, never for a clock.
 */
class ReadTimeoutTest {

    private static final Duration READ = Duration.ofMillis(300);
    private static final Duration IDLE = Duration.ofMillis(300);
    private static final String GET = "GET ";
    private static final String REST = " HTTP/1.1\r\nHost: x\r\n\r\n";

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private LoomgateServers start(CountDownLatch release) throws Exception {
        LoomgateServers servers = new LoomgateServers(new ServerLimits(READ, IDLE, 0, 0, AddressRanges.NONE));
        server = servers.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            if (exchange.getRequestURI().getPath().equals("/long")) {
                try {
                    release.await(60, TimeUnit.SECONDS);   // runs until the test has seen the idle timeout pass
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = "done".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return servers;
    }

    @Test
    void aHeadSentInPartIsClosedAfterTheReadTimeoutAndCounted() throws Exception {
        LoomgateServers servers = start(new CountDownLatch(0));
        try (Wire w = connect()) {
            w.send("GET / HTTP/1.1\r\nHost: x\r\n");
            assertTrue(w.closedByServer(), "closed, with no answer");
        }
        // counted by the connection's thread as it ends, which may be just after the client sees the close
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> servers.stats().headTimeouts() == 1);
    }

    @Test
    void anIdleConnectionIsClosedAfterTheIdleTimeout() throws Exception {
        LoomgateServers servers = start(new CountDownLatch(0));
        try (Wire w = connect()) {
            w.send(GET + "/" + REST);
            assertTrue(w.answer().endsWith("done"));
            assertTrue(w.closedByServer(), "closed once idle");
        }
        assertEquals(0, servers.stats().headTimeouts(), "idle between requests is not a head timeout");
    }

    /** The watch reads the socket while the handler works; its wait starts when the exchange ends. */
    @Test
    void aRequestThatRunsLongerThanTheIdleTimeoutIsAnsweredAndTheConnectionKept() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        LoomgateServers servers = start(release);
        try (Wire w = connect()) {
            w.send(GET + "/long" + REST);
            // Three idle timeouts' worth of the watchdog's passes (100 ms apart at least), counted by the
            // watchdog itself: a read timed from its start would have been ended by now.
            IoWatchdog watchdog = ((PlainServer) server).listener().watchdog();
            long passes = watchdog.passes();
            while (watchdog.passes() - passes < 3 * IDLE.toMillis() / 100 + 2) {
                Thread.sleep(50);
            }
            release.countDown();
            assertTrue(w.answer().endsWith("done"));
            w.send(GET + "/" + REST);
            assertTrue(w.answer().endsWith("done"), "the connection was kept");
        }
        assertEquals(0, servers.stats().clientGone());
    }

    private Wire connect() throws Exception {
        Wire w = new Wire(new InetSocketAddress("127.0.0.1", server.getAddress().getPort()));
        w.timeout(60_000);
        return w;
    }
}
