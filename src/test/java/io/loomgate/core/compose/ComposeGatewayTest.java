package io.loomgate.core.compose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.Background;
import io.loomgate.testing.TestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A composed route through real servers on 127.0.0.1: the upstream's own log of events shows when
 * each call started, that a call starts the moment its inputs are ready (not when its "level" is
 * done), that a failure cancels what still runs (the upstream sees its connection closed) and that
 * no call that needed the failed one ever starts.
 */
class ComposeGatewayTest {

    private static final String OVERVIEW = """
            {"path": "/users/{id}/overview", "policy": "compose", "timeout": "5s",
             "calls": {
               "user":   {"upstream": "users",   "path": "/users/{id}"},
               "team":   {"upstream": "users",   "path": "/teams/{user.teamId}"},
               "orders": {"upstream": "orders",  "path": "/orders?userId={id}"},
               "items":  {"upstream": "catalog", "forEach": "orders.items", "path": "/items/{item.sku}", "concurrency": 2}},
             "answer": {"name": "{user.name}", "team": "{team.name}", "skus": "{orders.items}", "items": "{items}",
                        "line": "{user.name} of {team.name}"}}""";

    @TempDir
    Path dir;
    private ApiUpstream api;
    private FileGate served;
    private TestClient client;

    @BeforeEach
    void startUpstream() throws Exception {
        api = ApiUpstream.start()
                .answer("/users/7", "{\"name\":\"Ada\",\"teamId\":3}")
                .answer("/teams/3", "{\"name\":\"Engines\"}")
                .answer("/orders", "{\"items\":[{\"sku\":\"a\"},{\"sku\":\"b\"}]}")
                .answer("/items/", "{\"price\":1}")
                .answer("/items/a", "{\"price\":10}")
                .answer("/items/b", "{\"price\":20}");
    }

    private void serve(String... routes) throws Exception {
        served = FileGate.start(dir, String.join(",", List.of("users", "orders", "catalog").stream()
                .map(id -> "{\"id\":\"" + id + "\",\"kind\":\"http\",\"url\":\"" + api.url() + "\"}").toList()), List.of(routes));
        client = served.client();
    }

    @AfterEach
    void stop() throws Exception {
        if (served != null) {
            served.close();
        }
        api.close();
    }

    @Test
    void eachCallStartsTheMomentItsInputsAreReadyAndTheAnswerIsTheTemplateInDeclaredOrder() throws Exception {
        serve(OVERVIEW);
        api.hold("/users/7").hold("/orders");
        CompletableFuture<HttpResponse<String>> answer = Background.supply(() -> client.get("/users/7/overview"));

        api.await("start /users/7");
        api.await("start /orders?userId=7");   // both started with nothing between them to wait for
        api.release("/users/7");
        api.await("start /teams/3");            // team follows user at once, while orders still runs
        assertFalse(api.events().contains("end /orders?userId=7"), "team did not wait for orders: " + api.events());
        api.release("/orders");

        HttpResponse<String> r = answer.get();
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("{\"name\":\"Ada\",\"team\":\"Engines\",\"skus\":[{\"sku\":\"a\"},{\"sku\":\"b\"}],"
                + "\"items\":[{\"price\":10},{\"price\":20}],\"line\":\"Ada of Engines\"}", r.body());
        List<String> events = api.events();
        assertTrue(events.indexOf("end /users/7") < events.indexOf("start /teams/3"), events.toString());
        assertTrue(events.indexOf("end /orders?userId=7") < events.indexOf("start /items/a"), events.toString());
        String timing = r.headers().firstValue("Server-Timing").orElseThrow();
        for (String call : List.of("user", "team", "orders", "items")) {
            assertTrue(timing.contains(call + ";"), "Server-Timing names " + call + ": " + timing);
        }
        assertTrue(r.headers().firstValue("X-Loomgate-Completed").isEmpty(), "a complete answer is not marked partial");
        assertEquals(r.body(), client.get("/users/7/overview").body(), "the same inputs give the same bytes");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRequiredCallThatFailsCancelsWhatRunsAndWhatNeededItNeverStarts() throws Exception {
        serve(OVERVIEW);
        api.hold("/users/7").hold("/orders").answer("/orders", 500, "{\"error\":\"down\"}");

        var answer = io.loomgate.testing.Background.supply(() -> client.get("/users/7/overview"));
        api.await("start /users/7");          // both running before orders fails: on a busy machine it could fail first
        api.await("start /orders?userId=7");
        api.release("/orders");
        HttpResponse<String> r = answer.get();

        assertEquals(502, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"call\":\"orders\""), r.body());
        api.await("closed /users/7");          // the running call's upstream saw its connection closed
        List<String> events = api.events();
        assertFalse(events.stream().anyMatch(e -> e.startsWith("start /teams/") || e.startsWith("start /items/")),
                "no call that needed a failed or unfinished one started: " + events);
        assertFalse(events.contains("end /users/7"), events.toString());

        Map<String, Object> timeline = client.getJson("/debug/requests/" + r.headers().firstValue("X-Request-Id").orElseThrow());
        assertEquals("compose", timeline.get("policy"));
        Map<String, String> outcomes = new LinkedHashMap<>();
        for (Map<String, Object> span : (List<Map<String, Object>>) timeline.get("spans")) {
            outcomes.put((String) span.get("service"), span.get("outcome") + (span.containsKey("startMs") ? "" : ", never started"));
        }
        assertEquals(Map.of("user", "cancelled", "team", "cancelled, never started", "orders", "failed",
                "items", "cancelled, never started"), outcomes);
    }

    @Test
    void forEachRunsInTheInputsOrderAtMostConcurrencyAtOnce() throws Exception {
        serve(OVERVIEW);
        api.answer("/orders", "{\"items\":[{\"sku\":\"a\"},{\"sku\":\"b\"},{\"sku\":\"c\"},{\"sku\":\"d\"},{\"sku\":\"e\"}]}")
                .answer("/items/c", "{\"price\":30}").hold("/items/a").hold("/items/b");
        CompletableFuture<HttpResponse<String>> answer = Background.supply(() -> client.get("/users/7/overview"));

        api.await("start /items/a");            // both held: the upstream sees the two at once, whatever the timing
        api.await("start /items/b");
        api.release("/items/b");
        api.await("end /items/e");              // c, d and e ran one after another beside the held a
        api.release("/items/a");

        HttpResponse<String> r = answer.get();
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"items\":[{\"price\":10},{\"price\":20},{\"price\":30},{\"price\":1},{\"price\":1}]"),
                "in the input's order, whatever the order of ending: " + r.body());
        assertEquals(2, api.mostAtOnce("/items/"), "concurrency 2, reached and never passed");
        List<String> events = api.events();
        assertTrue(events.indexOf("end /items/e") < events.indexOf("end /items/a"), events.toString());
    }

    /**
     * Every element's call held open: the calls in progress at once are then exactly what loomgate
     * started, so the bound is seen without any race. One more at once would be a fourth start.
     */
    @Test
    void forEachNeverRunsMoreThanItsConcurrencyWhileEveryElementIsHeld() throws Exception {
        serve(OVERVIEW.replace("\"concurrency\": 2", "\"concurrency\": 3"));
        api.answer("/orders", "{\"items\":[" + "{\"sku\":\"x\"},".repeat(9) + "{\"sku\":\"x\"}]}").hold("/items/");
        CompletableFuture<HttpResponse<String>> answer = Background.supply(() -> client.get("/users/7/overview"));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> starts("/items/") >= 3);
        Thread.sleep(1_000);   // a fourth call, were one allowed, has had a second to start
        assertEquals(3, starts("/items/"), "three held at once, and no fourth started: " + api.events());
        api.release("/items/");
        assertEquals(200, answer.get().statusCode());
        assertEquals(10, starts("/items/"), "then the other seven");
        assertEquals(3, api.mostAtOnce("/items/"));
    }

    private long starts(String prefix) {
        return api.events().stream().filter(e -> e.startsWith("start " + prefix)).count();
    }

    @Test
    void aForEachElementThatAnswersNullOrNothingIsNullInTheArray() throws Exception {
        serve(OVERVIEW);
        api.answer("/orders", "{\"items\":[{\"sku\":\"a\"},{\"sku\":\"n\"},{\"sku\":\"e\"}]}")
                .answer("/items/n", "null").answer("/items/e", 204, "");

        HttpResponse<String> r = client.get("/users/7/overview");

        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"items\":[{\"price\":10},null,null]"), r.body());
    }

    @Test
    void aForEachOverItsMaxItemsIsRefusedWithoutCallingAnything() throws Exception {
        serve("""
                {"path": "/users/{id}/items", "policy": "compose",
                 "calls": {
                   "orders": {"upstream": "orders", "path": "/orders?userId={id}"},
                   "items":  {"upstream": "catalog", "forEach": "orders.items", "path": "/items/{item.sku}", "maxItems": 1}}}""");

        HttpResponse<String> r = client.get("/users/7/items");

        assertEquals(502, r.statusCode(), r.body());
        assertTrue(r.body().contains("orders.items has 2 elements, over items's maxItems of 1"), r.body());
        assertFalse(api.events().stream().anyMatch(e -> e.startsWith("start /items/")), api.events().toString());
    }

    @Test
    void theDeadlineIsA504NamingTheUnfinishedCallsWhoseUpstreamsSeeThemClosed() throws Exception {
        serve(OVERVIEW.replace("\"timeout\": \"5s\"", "\"timeout\": \"2s\""));   // long enough for user's try to reach its upstream on a busy machine
        api.hold("/users/7");

        HttpResponse<String> r = client.get("/users/7/overview");

        assertEquals(504, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"message\":\"deadline of 2s passed; still running: user; not started: team\"}"), r.body());
        api.await("closed /users/7");
        assertTrue(api.events().contains("end /items/b"), "what did not need user ran to the end: " + api.events());
    }

    @Test
    void aCallsOwnTimeoutBelowTheDeadlineFailsOnlyThatCall() throws Exception {
        serve("""
                {"path": "/users/{id}/card", "policy": "compose", "timeout": "5s",
                 "calls": {
                   "user":   {"upstream": "users",  "path": "/users/{id}"},
                   "orders": {"upstream": "orders", "path": "/orders?userId={id}", "timeout": "1s",
                              "optional": true, "fallback": {"items": []}}},
                 "answer": {"name": "{user.name}", "orders": "{orders.items}", "errors": "{errors}"}}""");
        api.hold("/orders");

        HttpResponse<String> r = client.get("/users/7/card");

        assertEquals(200, r.statusCode(), r.body());
        assertEquals("false", r.headers().firstValue("X-Loomgate-Completed").orElse(""));
        assertEquals("{\"name\":\"Ada\",\"orders\":[],\"errors\":[{\"call\":\"orders\",\"error\":\"orders: no answer"
                + " within its own 1s\"}]}", r.body());
        api.await("closed /orders?userId=7");
        // The call log hears the same reason the answer gives: its own timeout, not a cancellation.
        String id = r.headers().firstValue("X-Request-Id").orElseThrow();
        org.awaitility.Awaitility.await().until(() -> served.gate().upstreams().calls().callsOf(id).size() == 2);
        assertEquals(io.loomgate.core.call.Outcome.TIMED_OUT, served.gate().upstreams().calls().callsOf(id).stream()
                .filter(c -> c.upstream().value().equals("orders")).findFirst().orElseThrow().outcome());
    }
}
