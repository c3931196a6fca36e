package io.loomgate.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The strict parser must reject what a scraper would; otherwise the tests that use it prove nothing. */
class PrometheusTextTest {

    private static final String GOOD = """
            # HELP loomgate_x_total Things.
            # TYPE loomgate_x_total counter
            loomgate_x_total{a="q\\"uote\\\\back\\nline"} 3
            # HELP loomgate_d_seconds Durations.
            # TYPE loomgate_d_seconds histogram
            loomgate_d_seconds_bucket{le="0.1"} 1
            loomgate_d_seconds_bucket{le="+Inf"} 2
            loomgate_d_seconds_sum 0.35
            loomgate_d_seconds_count 2
            """;

    @Test
    void acceptsWellFormedTextAndUnescapesLabels() {
        PrometheusText p = PrometheusText.parse(GOOD);
        assertEquals(3, p.value("loomgate_x_total", Map.of("a", "q\"uote\\back\nline")));
        assertEquals("histogram", p.types().get("loomgate_d_seconds"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "loomgate_x_total 1\n",                                                       // no TYPE first
        "# TYPE loomgate_x counter\nloomgate_x 1\n",                                  // counter without _total
        "# TYPE loomgate_g_total gauge\nloomgate_g_total 1\n",                        // gauge with _total
        "# TYPE loomgate_x_total counter\nloomgate_x_total{a=\"\\t\"} 1\n",           // bad escape
        "# TYPE loomgate_x_total counter\nloomgate_x_total{a=\"1\"} 1\nloomgate_x_total{a=\"1\"} 2\n",  // duplicate
        "# TYPE loomgate_x_total counter\nloomgate_x_total one\n",                    // bad value
        "# TYPE loomgate_x_total counter\nloomgate_x_total 1",                        // no final newline
        "# TYPE loomgate_a gauge\n# TYPE loomgate_b gauge\nloomgate_a 1\nloomgate_b 1\nloomgate_a{x=\"y\"} 1\n", // split family
        "# TYPE other_metric gauge\nother_metric 1\n",                                // prefix
        "# TYPE loomgate_request_duration_ms histogram\n",                            // not in seconds
        "# TYPE loomgate_h_seconds histogram\nloomgate_h_seconds_bucket{le=\"1\"} 2\nloomgate_h_seconds_bucket{le=\"+Inf\"} 1\nloomgate_h_seconds_sum 1\nloomgate_h_seconds_count 1\n", // not cumulative
        "# TYPE loomgate_h_seconds histogram\nloomgate_h_seconds_bucket{le=\"+Inf\"} 2\nloomgate_h_seconds_sum 1\nloomgate_h_seconds_count 3\n", // +Inf != count
        "# TYPE loomgate_h_seconds histogram\nloomgate_h_seconds_bucket{le=\"1\"} 1\nloomgate_h_seconds_sum 1\nloomgate_h_seconds_count 1\n", // no +Inf
    })
    void rejectsWhatAScraperWould(String text) {
        AssertionError e = assertThrows(AssertionError.class, () -> PrometheusText.parse(text));
        assertTrue(e.getMessage().startsWith("line ") || e.getMessage().contains("newline"), e.getMessage());
    }
}
