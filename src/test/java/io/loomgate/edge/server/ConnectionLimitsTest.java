package io.loomgate.edge.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.Loomgate;
import io.loomgate.config.AddressRanges;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.PrometheusText;
import io.loomgate.testing.TestClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server's connection limits, seen from real sockets: a client address past its share is
 * closed at once while others go on, the whole server past its maximum likewise, both are counted,
 * and the addresses left out of the per-address limit (loopback, trusted proxies) are left out.
 */
class ConnectionLimitsTest {

    private LoomgateServers provider;

    private HttpServer start(ServerLimits limits) throws IOException {
        provider = new LoomgateServers(limits);
        HttpServer server = provider.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", x -> {
            byte[] body = "ok".getBytes();
            x.sendResponseHeaders(200, body.length);
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    private ServerStats stats(HttpServer server) {
        return provider.stats();
    }

    /** A connection that has been answered once, so the server holds it open. */
    private static Wire served(HttpServer server) throws IOException {
        Wire w = new Wire(server.getAddress());
        w.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(w.answer().endsWith("ok"));
        return w;
    }

    /** True when the server closed {@code w} without a word. */
    private static boolean closedAtOnce(Wire w) throws IOException {
        try {
            w.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            return w.closedByServer();
        } catch (SocketException reset) {
            return true;
        }
    }

    @Test
    void anAddressPastItsShareIsClosedAtOnceAndTheNextOneIsAdmittedWhenOneCloses() throws Exception {
        HttpServer server = start(new ServerLimits(Duration.ofSeconds(5), Duration.ofSeconds(30), 0, 2, AddressRanges.NONE));
        try (Wire a = served(server); Wire b = served(server)) {
            try (Wire c = new Wire(server.getAddress())) {
                assertTrue(closedAtOnce(c), "the third connection from 127.0.0.1 is closed");
            }
            assertEquals(1, stats(server).refusedPerAddress());
            assertEquals(0, stats(server).refusedAtMax());
            a.close();
            await().atMost(Duration.ofSeconds(30)).until(() -> stats(server).open() == 1);
            try (Wire d = served(server)) {
                assertEquals(2, stats(server).open(), "a closed connection gives its address its share back");
            }
            b.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(b.answer().endsWith("ok"), "the connections already admitted go on");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void addressesLeftOutOfTheLimitAreNotCounted() throws Exception {
        HttpServer server = start(new ServerLimits(Duration.ofSeconds(5), Duration.ofSeconds(30), 0, 1,
                AddressRanges.parse("127.0.0.0/8")));
        List<Wire> wires = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                wires.add(served(server));
            }
            assertEquals(0, stats(server).refusedPerAddress());
            assertEquals(5, stats(server).open());
        } finally {
            for (Wire w : wires) {
                w.close();
            }
            server.stop(0);
        }
    }

    @Test
    void pastTheMaximumANewConnectionIsClosedAndCountedInTheMetrics() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--server", "loomgate",
                "--max-connections", "3"));
             TestClient client = new TestClient(gate.baseUri())) {
            InetSocketAddress address = gate.server().address();
            List<Wire> held = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    Wire w = new Wire(address);
                    w.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
                    assertTrue(w.answer().contains("\"status\":\"UP\""));
                    held.add(w);
                }
                try (Wire fourth = new Wire(address)) {
                    assertTrue(closedAtOnce(fourth), "the fourth connection is closed as soon as accepted");
                }
                held.getFirst().send("GET /metrics?format=prometheus HTTP/1.1\r\nHost: x\r\n\r\n");
                PrometheusText metrics = PrometheusText.parse(body(held.getFirst().answer()));
                assertEquals(1, metrics.value("loomgate_server_connections_refused_total", Map.of("reason", "max")));
                assertEquals(0, metrics.value("loomgate_server_connections_refused_total", Map.of("reason", "per_address")));
                assertEquals(3, metrics.value("loomgate_server_connections", Map.of()));
            } finally {
                for (Wire w : held) {
                    w.close();
                }
            }
        }
    }

    private static String body(String answer) {
        return answer.substring(answer.indexOf("\r\n\r\n") + 4);
    }

    @Test
    void theFlagsDefaultIsATenthOfTheMaximumAndAtLeast64() throws Exception {
        assertEquals(500, CommandLine.config("--max-connections", "5000").server().maxPerAddress());
        assertEquals(64, CommandLine.config("--max-connections", "100").server().maxPerAddress());
        assertEquals(7, CommandLine.config("--max-connections-per-address", "7").server().maxPerAddress());
        assertEquals(0, CommandLine.config("--max-connections-per-address", "0").server().maxPerAddress());
    }
}
