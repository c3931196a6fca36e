package io.loomgate.core.compose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.MisbehavingUpstream;
import io.loomgate.testing.TestClient;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a composed route answers, through real servers on 127.0.0.1: a required call's 4xx stays that
 * 4xx, a 5xx or an unreachable upstream is a 502, an optional call's failure gives its fallback in a
 * 200 marked partial; values are substituted safely; a write runs once, then reads use its answer.
 */
class ComposeAnswersTest {

    @TempDir
    Path dir;
    private ApiUpstream api;
    private FileGate served;
    private Loomgate gate;
    private TestClient client;

    @BeforeEach
    void startUpstream() throws Exception {
        api = ApiUpstream.start()
                .answer("/users/", 404, "{\"error\":\"no such user\",\"code\":\"user_missing\"}")
                .answer("/users/7", "{\"name\":\"Ada\",\"teamId\":3}")
                .answer("/teams/3", "{\"name\":\"Engines\"}");
    }

    /** The routes, with upstreams {@code users} and {@code orders} on the test's upstream and {@code gone} refusing connections. */
    private void serve(String... routes) throws Exception {
        served = FileGate.start(dir, """
                {"id": "users", "kind": "http", "url": "%s"}, {"id": "orders", "kind": "http", "url": "%s"},
                {"id": "gone", "kind": "http", "url": "http://127.0.0.1:%d"},
                {"id": "clock", "kind": "simulated", "service": "cache", "latency": "5ms", "value": {"tick": 1}}"""
                .formatted(api.url(), api.url(), MisbehavingUpstream.refusedPort()), List.of(routes));
        gate = served.gate();
        client = served.client();
    }

    @AfterEach
    void stop() throws Exception {
        if (served != null) {
            served.close();
        }
        api.close();
    }

    private static String profile(String ordersCall) {
        return """
                {"path": "/users/{id}/profile", "policy": "compose", "timeout": "5s",
                 "calls": {"user": {"upstream": "users", "path": "/users/{id}"}, "orders": %s},
                 "answer": {"name": "{user.name}", "orders": "{orders}", "errors": "{errors}"}}""".formatted(ordersCall);
    }

    @Test
    void aRequiredCallsFourHundredStaysThatStatusWithTheUpstreamsOwnError() throws Exception {
        serve(profile("{\"upstream\": \"orders\", \"path\": \"/orders\", \"optional\": true}"));
        api.answer("/orders", "[]");

        HttpResponse<String> missing = client.get("/users/9/profile");

        assertEquals(404, missing.statusCode(), "a missing user is a 404, not a 502");
        assertEquals("{\"error\":\"no such user\",\"code\":\"user_missing\"}", missing.body());
        api.answer("/users/8", 409, "not json");
        HttpResponse<String> conflict = client.get("/users/8/profile");
        assertEquals(409, conflict.statusCode(), conflict.body());
        assertTrue(conflict.body().contains("\"call\":\"user\""), "without a JSON error, loomgate's names the call: " + conflict.body());
    }

    @Test
    void aFiveHundredOrAnUnreachableUpstreamIsA502NamingTheCall() throws Exception {
        serve(profile("{\"upstream\": \"orders\", \"path\": \"/orders\"}"),
                """
                {"path": "/users/{id}/far", "policy": "compose",
                 "calls": {"user": {"upstream": "users", "path": "/users/{id}"}, "far": {"upstream": "gone", "path": "/x"}}}""");
        api.answer("/orders", 503, "{\"error\":\"busy\"}");

        HttpResponse<String> busy = client.get("/users/7/profile");
        assertEquals(502, busy.statusCode(), busy.body());
        assertTrue(busy.body().contains("\"call\":\"orders\"") && busy.body().contains("HTTP 503"), busy.body());
        HttpResponse<String> far = client.get("/users/7/far");
        assertEquals(502, far.statusCode(), far.body());
        assertTrue(far.body().contains("\"call\":\"far\""), far.body());
    }

    @Test
    void anOptionalCallsFailureGivesNullOrItsFallbackInAPartialTwoHundred() throws Exception {
        serve(profile("{\"upstream\": \"orders\", \"path\": \"/orders\", \"optional\": true}"),
                profile("{\"upstream\": \"orders\", \"path\": \"/orders\", \"optional\": true, \"fallback\": {\"none\": true}}")
                        .replace("/profile", "/card"));
        api.answer("/orders", 500, "{\"error\":\"down\"}");

        HttpResponse<String> nothing = client.get("/users/7/profile");
        assertEquals(200, nothing.statusCode(), nothing.body());
        assertEquals("false", nothing.headers().firstValue("X-Loomgate-Completed").orElse(""));
        assertTrue(nothing.body().startsWith("{\"name\":\"Ada\",\"orders\":null,\"errors\":[{\"call\":\"orders\",\"error\":\"orders:"
                + " answered HTTP 500"), nothing.body());
        HttpResponse<String> fallback = client.get("/users/7/card");
        assertTrue(fallback.body().startsWith("{\"name\":\"Ada\",\"orders\":{\"none\":true},"), fallback.body());

        api.answer("/orders", "[1]");
        HttpResponse<String> whole = client.get("/users/7/card");
        assertEquals("{\"name\":\"Ada\",\"orders\":[1],\"errors\":[]}", whole.body());
        assertTrue(whole.headers().firstValue("X-Loomgate-Completed").isEmpty());
    }

    @Test
    void anOptionalCallWhoseInputIsAbsentEndsLikeAFailedOneAndARequiredOneIsA400() throws Exception {
        serve(profile("{\"upstream\": \"orders\", \"path\": \"/orders/{query.promo}\", \"optional\": true,"
                        + " \"fallback\": []}"),
                profile("{\"upstream\": \"orders\", \"path\": \"/orders/{query.promo}\"}").replace("/profile", "/card"));
        api.answer("/orders/x", "[1]");

        HttpResponse<String> optional = client.get("/users/7/profile");
        assertEquals(200, optional.statusCode(), optional.body() + api.events());
        assertEquals("false", optional.headers().firstValue("X-Loomgate-Completed").orElse(""), optional.body() + api.events());
        assertTrue(optional.body().startsWith("{\"name\":\"Ada\",\"orders\":[],\"errors\":[{\"call\":\"orders\",\"error\":"
                + "\"orders cannot be sent: "), optional.body());
        assertFalse(api.events().stream().anyMatch(e -> e.startsWith("start /orders")), "never sent: " + api.events());

        HttpResponse<String> required = client.get("/users/7/card");
        assertEquals(400, required.statusCode(), required.body());
        assertTrue(required.body().contains("orders cannot be sent: "), required.body());

        assertEquals("{\"name\":\"Ada\",\"orders\":[1],\"errors\":[]}", client.get("/users/7/profile?promo=x").body());
    }

    @Test
    void aForEachOverAnEmptyArraySucceedsAndSaysSoInServerTiming() throws Exception {
        serve("""
                {"path": "/users/{id}/items", "policy": "compose",
                 "calls": {"orders": {"upstream": "orders", "path": "/orders"},
                           "items":  {"upstream": "users", "forEach": "orders.items", "path": "/items/{item.sku}"}}}""");
        api.answer("/orders", "{\"items\":[]}");

        HttpResponse<String> r = client.get("/users/7/items");
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"items\":[]"), r.body());
        String timing = r.headers().firstValue("Server-Timing").orElseThrow();
        assertTrue(timing.matches(".*items;start=[0-9.]+;dur=[0-9.]+;desc=\"success\".*"), timing);
        assertFalse(timing.contains("never started"), timing);
    }

    @Test
    void substitutionNeverLetsAValueClimbOutOfItsPlace() throws Exception {
        serve("""
                {"path": "/lookup", "policy": "compose",
                 "calls": {"user": {"upstream": "users", "path": "/users/{query.name}?q={query.q}",
                                    "headers": {"X-Asked-For": "{query.who}"}},
                           "team": {"upstream": "users", "path": "/teams/{user.teamId}"}}}""");
        api.answer("/users/..%2Fadmin", "{\"teamId\":\"..\"}");

        assertEquals(400, client.get("/lookup?name=..").statusCode(), "'..' cannot be a path segment");
        assertEquals(400, client.get("/lookup?name=").statusCode(), "nor can nothing");
        HttpResponse<String> upward = client.get("/lookup?name=../admin&q=a%26b%3Dc%20d&who=Ada%20L.");
        assertEquals(502, upward.statusCode(), "a '..' from an upstream's answer is the upstream's fault: " + upward.body());
        assertTrue(upward.body().contains("{user.teamId} cannot be a path segment: '..'"), upward.body());
        List<String> targets = api.requests().stream().map(ApiUpstream.Request::target).toList();
        assertEquals(List.of("/users/..%2Fadmin?q=a%26b%3Dc%20d"), targets, "one segment, one query component");
        assertEquals("Ada L.", api.requests().getFirst().headers().get("x-asked-for"));

        HttpResponse<String> r = client.get("/lookup?name=x%0D%0AX-Evil:%201");
        assertEquals(404, r.statusCode(), "a line break in a path segment is just encoded: " + r.body());
        assertEquals("/users/x%0D%0AX-Evil%3A%201?q=", api.requests().getLast().target());
        assertEquals(400, client.get("/lookup?name=7&who=Ada%0D%0AX-Evil:%201").statusCode(),
                "a line break cannot go into a header");
        assertEquals(400, client.get("/lookup?name=7&who=%01").statusCode(), "nor any other control character");
        assertEquals(2, api.requests().size(), "neither was sent");
    }

    @Test
    void aWriteRunsOnceAndTheReadsAfterItUseItsAnswer() throws Exception {
        serve("""
                {"path": "/orders", "policy": "compose", "methods": ["POST"],
                 "calls": {"created": {"upstream": "orders", "path": "/orders", "body": "request"},
                           "user":    {"upstream": "users",  "path": "/users/{created.userId}"},
                           "tick":    {"upstream": "clock"}},
                 "answer": {"order": "{created.id}", "customer": "{user.name}", "clock": "{tick.tick}"}}""");
        api.answer("/orders", 201, "{\"id\":55,\"userId\":7}");

        HttpResponse<String> r = post("/orders", "{\"sku\":\"a\"}");

        assertEquals(200, r.statusCode(), r.body());
        assertEquals("{\"order\":55,\"customer\":\"Ada\",\"clock\":1}", r.body());
        ApiUpstream.Request write = api.requests().getFirst();
        assertEquals("POST", write.method());
        assertEquals("{\"sku\":\"a\"}", write.body());
        assertEquals("application/json", write.headers().get("content-type"));
        assertEquals(List.of("start /orders", "end /orders", "start /users/7", "end /users/7"), api.events());

        api.drop("/orders");
        HttpResponse<String> lost = post("/orders", "{\"sku\":\"b\"}");
        assertEquals(502, lost.statusCode(), lost.body());
        assertEquals(1, api.events().stream().filter(e -> e.equals("dropped /orders")).count(),
                "a write whose answer was lost is not sent again: " + api.events());
        assertEquals(405, client.get("/orders").statusCode(), "the route takes only its declared methods");
    }

    private HttpResponse<String> post(String path, String json) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(gate.baseUri() + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
        return client.http().send(request, HttpResponse.BodyHandlers.ofString());
    }
}
