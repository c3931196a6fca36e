package io.loomgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loomgate.http.Response;
import io.loomgate.edge.listener.Lifecycle;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code /readyz} before the main listener serves: not ready yet. (Draining is tested over HTTP.) */
class ProbeEndpointsTest {

    @Test
    void readyzSaysStartingUntilTheServerRuns() throws Exception {
        Lifecycle starting = new Lifecycle();
        Response r = ProbeEndpoints.ready(starting).handle(null);
        assertEquals(503, r.status());
        assertEquals("{\"status\":\"STARTING\"}", new String(r.body(), StandardCharsets.UTF_8));
        assertEquals(200, ProbeEndpoints.live().handle(null).status());
    }
}
