package io.loomgate.edge.listener;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.TestClient;
import io.loomgate.testing.TestRoutes;
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
            assertTrue(((String) thread.get("name")).startsWith("request-"), thread.toString());
            assertTrue(gate.listeningLine().matches(".*\\(threads=virtual, server=(loomgate|jdk)\\)"), gate.listeningLine());
        }
    }

    @Test
    void platformModeRunsHandlersOnPoolThreads() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--threads", "platform", "--pool", "4"),
                TestRoutes.all());
             TestClient client = new TestClient(gate.baseUri())) {
            assertEquals("platform", client.getJson("/health").get("threads"));
            Map<String, Object> thread = client.getJson("/test/thread");
            assertEquals(false, thread.get("virtual"));
            assertTrue(((String) thread.get("name")).startsWith("request-pool-"), thread.toString());
            assertEquals(4, gate.server().pool().getCorePoolSize());
            assertTrue(gate.listeningLine().matches(".*\\(threads=platform pool=4, server=(loomgate|jdk)\\)"), gate.listeningLine());
        }
    }
}
