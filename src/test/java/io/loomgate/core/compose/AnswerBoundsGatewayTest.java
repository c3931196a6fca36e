package io.loomgate.core.compose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.json.JsonParser;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.LogCapture;
import io.loomgate.testing.TestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one request may hold of its upstreams' answers: JSON no deeper than the one depth limit
 * (deeper is the upstream's fault, a 502 naming it, never a 500 with a stack trace), and a composed
 * request's answers, across every forEach element, no more than its route's maxBytes.
 */
class AnswerBoundsGatewayTest {

    @TempDir
    Path dir;

    private static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    @Test
    void anAnswerDeeperThanTheLimitIsTheUpstreamsFaultAndOneJustWithinIsServed() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/deep", nested(100)).answer("/fine", nested(JsonParser.MAX_DEPTH));
             LogCapture log = LogCapture.of("loomgate");
             FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "\"},"
                     + "{\"id\": \"deep\", \"kind\": \"http\", \"url\": \"" + api.url() + "/deep\"}", List.of(
                     "{\"path\": \"/fan\", \"policy\": \"single\", \"upstreams\": [\"deep\"]}",
                     """
                     {"path": "/c/{what}", "policy": "compose", "calls": {"doc": {"upstream": "api", "path": "/{what}"}},
                      "answer": {"wrapped": {"in": {"three": "{doc}"}}}}"""))) {
            HttpResponse<String> fanOut = g.client().get("/fan");
            assertEquals(502, fanOut.statusCode(), fanOut.body());
            assertTrue(fanOut.body().contains("deep: answered invalid JSON (invalid JSON at line 1, column 65: nested deeper than "
                    + JsonParser.MAX_DEPTH + ")"), fanOut.body());
            HttpResponse<String> composed = g.client().get("/c/deep");
            assertEquals(502, composed.statusCode(), composed.body());
            Map<String, Object> error = TestClient.json(composed);
            assertEquals("doc", error.get("call"));
            assertTrue(((String) error.get("message")).contains("nested deeper than " + JsonParser.MAX_DEPTH), composed.body());
            HttpResponse<String> fine = g.client().get("/c/fine");
            assertEquals(200, fine.statusCode(), "the deepest answer allowed, written three levels down: " + fine.body());
            assertTrue(fine.body().startsWith("{\"wrapped\":{\"in\":{\"three\":" + "[".repeat(JsonParser.MAX_DEPTH)), fine.body());
            assertTrue(log.lines().stream().noneMatch(l -> l.contains("unexpected exception")), "no 500, no stack trace");
        }
    }

    @Test
    void aComposedRequestsAnswersAreBoundedAcrossItsForEachElements() throws Exception {
        String kilobyte = "{\"text\":\"" + "x".repeat(1_000) + "\"}";
        try (ApiUpstream api = ApiUpstream.start().answer("/list", "{\"ids\":[" + "1,".repeat(19) + "1]}").answer("/item/", kilobyte);
             FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "\"}", List.of(
                     """
                     {"path": "/small", "policy": "compose", "maxBytes": 10240,
                      "calls": {"list": {"upstream": "api", "path": "/list"},
                                "each": {"upstream": "api", "forEach": "list.ids", "path": "/item/{item}", "concurrency": 1}}}""",
                     """
                     {"path": "/large", "policy": "compose", "maxBytes": 65536,
                      "calls": {"list": {"upstream": "api", "path": "/list"},
                                "each": {"upstream": "api", "forEach": "list.ids", "path": "/item/{item}", "concurrency": 1}}}"""))) {
            HttpResponse<String> small = g.client().get("/small");
            assertEquals(502, small.statusCode(), small.body());
            Map<String, Object> error = TestClient.json(small);
            assertEquals("each", error.get("call"));
            assertTrue(((String) error.get("message")).contains("passed the route's maxBytes (10240 bytes)"), small.body());
            long itemCalls = api.requests().stream().filter(r -> r.target().startsWith("/item/")).count();
            assertTrue(itemCalls < 20, "the elements after the bound were never called: " + itemCalls);
            assertEquals(200, g.client().get("/large").statusCode(), "20 KB of answers within 64 KB");
        }
    }
}
