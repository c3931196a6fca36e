package io.loomgate.edge.listener;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.json.JsonParser;
import io.loomgate.testing.RawConnection;
import io.loomgate.testing.TestClient;
import io.loomgate.testing.TestRoutes;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Both thread models serve, and handlers really run on the threads the mode promises. */
class ThreadModeTest {

    @Test
    void virtualModeRunsHandlersOnVirtualThreads() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0"), TestRoutes.all());
             TestClient client = new TestClient(gate.baseUri())) {
            assertEquals("virtual", client.getJson("/health").get("threads"));
            Map<String, Object> thread = client.getJson("/test/thread");
            assertEquals(true, thread.get("virtual"));
            assertTrue(((String) thread.get("name")).matches("request-.*|loomgate-connection"), thread.toString());
            assertTrue(gate.listeningLine().matches(".*\\(threads=virtual, server=(loomgate|jdk)\\)"), gate.listeningLine());
        }
    }

    /** No handoff: the connection's virtual thread read the head and runs the request, and the next one too. */
    @Test
    void onLoomgatesServerRequestsRunOnTheirConnectionsThread() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--server", "loomgate"), TestRoutes.all())) {
            List<Map<String, Object>> threads = twoOnOneConnection(gate.baseUri().getPort());
            assertEquals("loomgate-connection", threads.get(0).get("name"), threads.toString());
            assertEquals(threads.get(0).get("id"), threads.get(1).get("id"), "one thread for both: " + threads);
            assertEquals(true, threads.get(0).get("virtual"));
            Map<String, Object> metrics = new TestClient(gate.baseUri()).getJson("/metrics?format=json");
            assertTrue(((Number) ((Map<?, ?>) metrics.get("virtualThreads")).get("started")).longValue() >= 1,
                    "the connection's thread is counted: " + metrics.get("virtualThreads"));
        }
    }

    /** The JDK's server hands each exchange to the executor: a virtual thread of its own each. */
    @Test
    void onTheJdksServerEachRequestRunsOnAThreadOfItsOwn() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--server", "jdk"), TestRoutes.all())) {
            List<Map<String, Object>> threads = twoOnOneConnection(gate.baseUri().getPort());
            assertTrue(((String) threads.get(0).get("name")).startsWith("request-"), threads.toString());
            assertNotEquals(threads.get(0).get("id"), threads.get(1).get("id"), threads.toString());
        }
    }

    /** GET /test/thread twice on one keep-alive connection, each answered before the next is sent. */
    private static List<Map<String, Object>> twoOnOneConnection(int port) throws Exception {
        List<Map<String, Object>> answers = new ArrayList<>();
        try (RawConnection c = new RawConnection(new InetSocketAddress("127.0.0.1", port))) {
            for (int i = 0; i < 2; i++) {
                RawConnection.Reply reply = c.get("/test/thread");
                assertEquals(200, reply.status(), reply.toString());
                answers.add(JsonParser.parseObject(reply.body()));
            }
        }
        return answers;
    }
}
