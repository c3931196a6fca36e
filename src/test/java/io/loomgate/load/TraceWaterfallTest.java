package io.loomgate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The waterfall of a made-up Jaeger answer: the tree's order, depths, offsets and the drawing. */
class TraceWaterfallTest {

    private static final String TRACE = """
            {"data": [{"traceID": "t", "spans": [
              {"spanID": "c", "operationName": "GET", "references": [{"spanID": "b"}], "startTime": 1100, "duration": 300,
               "tags": [{"key": "url.full", "value": "http://127.0.0.1:9090/users/7"}]},
              {"spanID": "a", "operationName": "GET /users/{id}", "references": [], "startTime": 1000, "duration": 900, "tags": []},
              {"spanID": "b", "operationName": "call users", "references": [{"spanID": "a"}], "startTime": 1050, "duration": 400,
               "tags": [{"key": "error", "value": true}]}]}]}""";

    @Test
    void spansAreDrawnParentsFirstIndentedAndPlacedFromTheTracesStart() {
        List<TraceWaterfall.Row> rows = TraceWaterfall.rows(TRACE);
        assertEquals(List.of(new TraceWaterfall.Row("GET /users/{id}", 0, 0, 900, false),
                new TraceWaterfall.Row("call users", 1, 50, 400, true),
                new TraceWaterfall.Row("GET /users/7", 2, 100, 300, false)), rows);
        String svg = TraceWaterfall.svg(rows);
        assertTrue(svg.startsWith("<svg") && svg.contains("GET /users/{id}") && svg.contains("#c53030"), svg);
    }
}
