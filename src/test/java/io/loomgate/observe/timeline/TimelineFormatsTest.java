package io.loomgate.observe.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.json.JsonParser;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Server-Timing and the Chrome trace-event export of one timeline, as pure logic. */
class TimelineFormatsTest {

    private static final Timeline FAILED = new Timeline("abc-1", "/aggregate", "all", "failed", 502, 1_700_000_000_000L,
            0.3, 52.6, 2000, 53.1, "failed: file", List.of(
            new TimelineSpan("db", "", "cancelled", OptionalDouble.of(0.4), 52.2, ""),
            new TimelineSpan("file", "", "failed", OptionalDouble.of(0.5), 52.0, "file: failed on request")));

    private static final Timeline HEDGED = new Timeline("abc-2", "/api", "hedge", "ok", 200, 1_700_000_000_000L,
            0.1, 31.0, 2000, 31.5, "", List.of(
            new TimelineSpan("api", "primary", "cancelled", OptionalDouble.of(0.2), 30.8, ""),
            new TimelineSpan("api", "backup", "success", OptionalDouble.of(20.2), 10.8, "")));

    @Test
    void serverTimingHasOneEntryPerPartWithItsDurationAndOutcome() {
        assertEquals("db;dur=52.2;desc=\"cancelled\", file;dur=52.0;desc=\"failed\"", ServerTiming.header(FAILED.spans(), false));
        assertEquals("api;dur=30.8;desc=\"cancelled, primary\", api;dur=10.8;desc=\"success, backup\"",
                ServerTiming.header(HEDGED.spans(), false));
        Timeline notSent = new Timeline("x", "/api", "hedge", "ok", 200, 0, 0, 5, 100, 5, "",
                List.of(new TimelineSpan("api", "backup", "cancelled", OptionalDouble.empty(), 0, "")));
        assertEquals("api;dur=0.0;desc=\"never started, backup\"", ServerTiming.header(notSent.spans(), false));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theTraceHasATrackPerPartAndMarksTheDecisionAndTheDeadline() {
        Map<String, Object> trace = (Map<String, Object>) JsonParser.parse(TimelineJson.trace(FAILED).toString());
        List<Map<String, Object>> events = (List<Map<String, Object>>) trace.get("traceEvents");
        List<Map<String, Object>> complete = events.stream().filter(e -> e.get("ph").equals("X")).toList();
        assertEquals(3, complete.size(), "the request and two parts");
        Map<String, Object> db = complete.stream().filter(e -> e.get("name").equals("db")).findFirst().orElseThrow();
        assertEquals("cancelled", db.get("cat"));
        long base = 1_700_000_000_000_000L;
        assertEquals(base + 400, ((Number) db.get("ts")).longValue(), "microseconds since the epoch");
        assertEquals(52_200, ((Number) db.get("dur")).longValue());
        Map<String, Object> decided = events.stream().filter(e -> e.get("name").equals("decided")).findFirst().orElseThrow();
        assertEquals("i", decided.get("ph"));
        assertEquals(base + 52_600, ((Number) decided.get("ts")).longValue());
        assertTrue(events.stream().anyMatch(e -> e.get("name").equals("deadline")
                && ((Number) e.get("ts")).longValue() == base + 2_000_000));
        List<Object> trackNames = events.stream().filter(e -> e.get("ph").equals("M"))
                .map(e -> ((Map<String, Object>) e.get("args")).get("name")).toList();
        assertEquals(List.of("/aggregate abc-1", "db", "file"), trackNames);
    }

    @Test
    void longReasonsAreCutSoOneUpstreamCannotGrowTheBuffer() {
        TimelineSpan s = new TimelineSpan("db", "", "failed", OptionalDouble.of(0), 1, "x".repeat(10_000));
        assertEquals(TimelineSpan.DETAIL_LIMIT, s.detail().length());
    }
}
