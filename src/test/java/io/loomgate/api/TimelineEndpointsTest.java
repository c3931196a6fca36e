package io.loomgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.BothModes;
import io.loomgate.testing.TestClient;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A request's trace over real HTTP, in both thread modes: the {@code Server-Timing} header, its
 * timeline at {@code /debug/requests/{id}} in JSON and Chrome trace-event form, the lists, the
 * dashboard page and the probes.
 */
class TimelineEndpointsTest {

    private static BothModes gates;

    @BeforeAll
    static void start() throws Exception {
        gates = BothModes.start();
    }

    @AfterAll
    static void stop() {
        gates.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    @SuppressWarnings("unchecked")
    void aFailedAggregateShowsDbCancelledWhenFileFailed(String mode) {
        TestClient client = gates.client(mode);
        HttpResponse<String> r = client.get("/aggregate?fail=file&delay=file:50ms&delay=db:5s&timeout=10s");
        assertEquals(502, r.statusCode());
        String timing = r.headers().firstValue("Server-Timing").orElseThrow();
        assertTrue(timing.matches("db;dur=[0-9.]+;desc=\"cancelled\", file;dur=[0-9.]+;desc=\"failed\""), timing);
        String id = r.headers().firstValue("X-Request-Id").orElseThrow();

        Map<String, Object> t = client.getJson("/debug/requests/" + id);
        assertEquals(id, t.get("id"));
        assertEquals("failed", t.get("status"));
        assertEquals(502L, t.get("httpStatus"));
        List<Map<String, Object>> spans = (List<Map<String, Object>>) t.get("spans");
        Map<String, Object> db = spans.get(0);
        Map<String, Object> file = spans.get(1);
        assertEquals("db", db.get("service"));
        assertEquals("cancelled", db.get("outcome"));
        assertEquals("the answer was decided without it", db.get("detail"), "why db stopped: its sibling's failure decided");
        assertEquals("failed", file.get("outcome"));
        double decided = ((Number) t.get("decidedMs")).doubleValue();
        double dbEnd = end(db);
        double fileEnd = end(file);
        assertTrue(decided >= 50 && decided < 3_000, "decided at " + decided + " ms, after file's 50 ms failure");
        // the order of events: file failed, which stopped db (5 s) long before its time, then the answer was
        // decided; each start and duration is rounded to a tenth of a millisecond, hence the 0.3 ms of slack
        assertTrue(fileEnd <= dbEnd + 0.3 && dbEnd <= decided + 0.3 && dbEnd < 3_000,
                "file failed at " + fileEnd + " ms, db stopped at " + dbEnd + " ms, decided at " + decided + " ms");
        assertEquals(10_000L, t.get("deadlineMs"));

        Map<String, Object> trace = client.getJson("/debug/requests/" + id + "?format=trace");
        List<Map<String, Object>> events = (List<Map<String, Object>>) trace.get("traceEvents");
        assertTrue(events.stream().anyMatch(e -> e.get("name").equals("db") && e.get("cat").equals("cancelled")
                && e.get("ph").equals("X")), events.toString());

        Map<String, Object> lists = client.getJson("/debug/requests");
        assertTrue(((List<Map<String, Object>>) lists.get("failed")).stream().anyMatch(s -> s.get("id").equals(id)));
    }

    private static double end(Map<String, Object> span) {
        return ((Number) span.get("startMs")).doubleValue() + ((Number) span.get("durationMs")).doubleValue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void anUnknownIdOrFormatIsAClearError(String mode) {
        TestClient client = gates.client(mode);
        HttpResponse<String> missing = client.get("/debug/requests/no-such-id");
        assertEquals(404, missing.statusCode());
        assertTrue(missing.body().contains("keeps the last 256 fan-out requests"), missing.body());
        assertTrue(missing.body().contains("32 slowest of the last 5 minutes"), missing.body());
        String id = client.get("/cache").headers().firstValue("X-Request-Id").orElseThrow();
        HttpResponse<String> badFormat = client.get("/debug/requests/" + id + "?format=xml");
        assertEquals(400, badFormat.statusCode());
        assertTrue(badFormat.body().contains("json or trace"), badFormat.body());
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void theDashboardIsOneSelfContainedPage(String mode) {
        HttpResponse<String> page = gates.client(mode).get("/dashboard");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
        String html = page.body();
        assertTrue(html.contains("<svg") || html.contains("createElementNS"), "draws SVG");
        // No external asset: the only absolute URL is the SVG namespace, which is never fetched.
        String stripped = html.replace("http://www.w3.org/2000/svg", "");
        assertFalse(stripped.matches("(?s).*(https?:)?//[a-z0-9.-]+\\.[a-z]{2,}.*"), "an external reference");
        assertFalse(html.contains("<script src"), "an external script");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void theProbesAnswer(String mode) {
        TestClient client = gates.client(mode);
        HttpResponse<String> live = client.get("/livez");
        assertEquals(200, live.statusCode());
        assertEquals("{\"status\":\"ALIVE\"}", live.body());
        HttpResponse<String> ready = client.get("/readyz");
        assertEquals(200, ready.statusCode());
        assertEquals("{\"status\":\"READY\"}", ready.body());
    }
}
