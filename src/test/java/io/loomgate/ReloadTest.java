package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.api.AdminControl;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.Background;
import io.loomgate.testing.TestClient;
import io.loomgate.upstream.Breaker;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reload through real servers on 127.0.0.1: a good file is swapped in for the next request, a
 * bad one changes nothing, a request that began on the old plan ends on it, and unchanged upstreams
 * and limits keep their state.
 */
class ReloadTest {

    @TempDir
    Path dir;
    private ApiUpstream api;
    private ApiUpstream other;
    private Path file;
    private Loomgate gate;
    private TestClient client;

    @BeforeEach
    void upstreams() throws Exception {
        api = ApiUpstream.start().answer("/a", "{\"from\":\"api\"}").answer("/a/", "{\"from\":\"api, below /a\"}");
        other = ApiUpstream.start().answer("/a", "{\"from\":\"other\"}");
        file = dir.resolve("routes.json");
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (gate != null) {
            gate.close();
        }
        api.close();
        other.close();
    }

    private void write(String upstreams, String... routes) throws Exception {
        Files.writeString(file, "{\"upstreams\": [" + upstreams + "], \"routes\": [" + String.join(",", routes) + "]}");
    }

    private static String http(String id, ApiUpstream at, String more) {
        return "{\"id\": \"" + id + "\", \"kind\": \"http\", \"url\": \"" + at.url() + "/a\"" + more + "}";
    }

    private static String single(String path, String upstream, String more) {
        return "{\"path\": \"" + path + "\", \"policy\": \"single\", \"upstreams\": [\"" + upstream + "\"]" + more + "}";
    }

    private void start(String... flags) throws Exception {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--routes", file.toString()));
        args.addAll(List.of(flags));
        gate = Loomgate.start(CommandLine.config(args.toArray(String[]::new)));
        client = new TestClient(gate.baseUri());
    }

    @Test
    void aGoodFileServesTheNextRequestAndABadOneChangesNothing() throws Exception {
        write(http("api", api, ""), single("/a", "api", ""));
        start();
        assertEquals(200, client.get("/a").statusCode());

        write(http("api", api, ""), "{\"path\": \"/b/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}");
        var done = assertInstanceOf(AdminControl.Reload.Done.class, gate.reload("test"));
        assertTrue(done.summary().startsWith("1 routes, 1 upstreams (1 kept with their state, 0 added, 0 changed, 0 removed)"),
                done.summary());
        assertEquals(404, client.get("/a").statusCode(), "the removed route is gone");
        assertEquals(200, client.get("/b/").statusCode(), "the added route serves");

        Files.writeString(file, "{\"upstreams\": [" + http("api", api, "") + "], \"routes\": [" + single("/c", "nope", "") + "]}");
        var refused = assertInstanceOf(AdminControl.Reload.Refused.class, gate.reload("test"));
        assertEquals(file + ": routes[0].upstreams[0] must be a declared upstream (api); got 'nope'", refused.error());
        assertEquals(200, client.get("/b/").statusCode(), "the running plan is kept");
        String metrics = client.get("/metrics?format=prometheus").body();
        assertTrue(metrics.contains("loomgate_config_reloads_total{result=\"ok\"} 1"), metrics);
        assertTrue(metrics.contains("loomgate_config_reloads_total{result=\"failed\"} 1"), metrics);
    }

    @Test
    void aRequestThatBeganOnTheOldPlanFinishesOnItsRoutesAndUpstreams() throws Exception {
        write(http("api", api, ""), single("/a", "api", ""));
        start();
        api.hold("/a");
        CompletableFuture<HttpResponse<String>> old = Background.supply(() -> client.get("/a"));
        api.await("start /a");

        write(http("api", other, ""), single("/a", "api", ""));   // the same route, its upstream elsewhere
        assertInstanceOf(AdminControl.Reload.Done.class, gate.reload("test"));
        String now = client.get("/a").body();
        assertTrue(now.contains("\"value\":{\"from\":\"other\"}"), "a new request is served by the new plan: " + now);

        api.release("/a");
        HttpResponse<String> first = old.get();
        assertEquals(200, first.statusCode(), first.body());
        assertTrue(first.body().contains("\"value\":{\"from\":\"api\"}"), "the old request ends on the upstream it began with: "
                + first.body());
    }

    @Test
    void anUnchangedUpstreamKeepsItsBreakerAndAChangedOneStartsAfresh() throws Exception {
        String breaker = ", \"breaker\": {\"consecutiveFailures\": 2, \"coolDown\": \"1m\"}";
        api.answer("/a", 500, "{\"error\":\"down\"}");
        write(http("api", api, breaker), single("/a", "api", ""));
        start();
        client.get("/a");
        client.get("/a");
        assertEquals(Breaker.State.OPEN, gate.upstreams().breakers().get(io.loomgate.core.call.UpstreamId.of("api")).state());

        write(http("api", api, breaker), single("/a", "api", ""), single("/again", "api", ""));
        gate.reload("test");
        assertEquals(Breaker.State.OPEN, gate.upstreams().breakers().get(io.loomgate.core.call.UpstreamId.of("api")).state(),
                "unchanged: the same breaker, still open");

        write(http("api", api, breaker.replace("1m", "2m")), single("/a", "api", ""));
        gate.reload("test");
        assertEquals(Breaker.State.CLOSED, gate.upstreams().breakers().get(io.loomgate.core.call.UpstreamId.of("api")).state(),
                "changed: a fresh breaker");
    }

    @Test
    void anUnchangedRateLimitKeepsItsBuckets() throws Exception {
        String limit = ", \"rateLimit\": {\"perSecond\": 0.01, \"burst\": 2}";
        write(http("api", api, ""), single("/a", "api", limit));
        start();
        assertEquals(200, client.get("/a").statusCode());
        assertEquals(200, client.get("/a").statusCode());
        assertEquals(429, client.get("/a").statusCode());

        write(http("api", api, ""), single("/a", "api", limit), single("/other", "api", ""));
        gate.reload("test");
        assertEquals(429, client.get("/a").statusCode(), "the client's empty bucket was kept");

        write(http("api", api, ""), single("/a", "api", limit.replace("\"burst\": 2", "\"burst\": 3")));
        gate.reload("test");
        assertEquals(200, client.get("/a").statusCode(), "new settings, new buckets");
    }

    @Test
    void aRemovedUpstreamsIdleConnectionsCloseOnceItsLastCallEnds() throws Exception {
        write(http("api", api, "") + "," + http("old", other, ""), single("/a", "api", ""), single("/old", "old", ""));
        start();
        assertEquals(200, client.get("/old").statusCode());
        assertEquals(1, other.open(), "its connection waits in the pool");

        write(http("api", api, ""), single("/a", "api", ""));
        var done = assertInstanceOf(AdminControl.Reload.Done.class, gate.reload("test"));
        assertTrue(done.summary().contains("1 kept with their state, 0 added, 0 changed, 1 removed"), done.summary());
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> other.open() == 0);
        assertEquals(200, client.get("/a").statusCode(), "the kept upstream still serves");
    }

    @Test
    void watchReloadsWhenTheRouteFileChanges() throws Exception {
        write(http("api", api, ""), single("/a", "api", ""));
        start("--watch");
        write(http("api", api, ""), single("/a", "api", ""), single("/watched", "api", ""));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> client.get("/watched").statusCode() == 200);
    }
}
