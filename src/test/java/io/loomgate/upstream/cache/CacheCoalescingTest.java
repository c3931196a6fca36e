package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.MisbehavingUpstream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Identical misses share one upstream call, which belongs to the cache: it goes on when the request
 * that started it leaves, and the upstream sees its connection closed when every waiter has left.
 */
class CacheCoalescingTest {

    @TempDir
    Path dir;

    private static long coalesced(FileGate g) {
        String m = g.client().get("/metrics?format=prometheus").body();
        return m.lines().filter(l -> l.startsWith("loomgate_cache_coalesced_total{service=\"item\"}"))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst().orElse(-1);
    }

    private static String routes(String upstreamUrl) {
        return "{\"id\": \"item\", \"kind\": \"http\", \"url\": \"" + upstreamUrl + "\", \"cache\": {\"maxBytes\": \"1MB\"}}";
    }

    @Test
    void aThousandConcurrentIdenticalMissesMakeOneUpstreamCall() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/item", "{\"v\":1}").hold("/item");
             FileGate g = FileGate.start(dir, routes(api.url() + "/item"),
                     List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"item\"], \"timeout\": \"30s\"}"))) {
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                all.add(g.client().http().sendAsync(HttpRequest.newBuilder(g.gate().uri("/x")).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            Awaitility.await().atMost(Duration.ofSeconds(25)).until(() -> coalesced(g) == 999);
            api.release("/item");
            int collapsed = 0;
            for (var r : all) {
                assertEquals(200, r.get().statusCode(), r.get().body());
                collapsed += r.get().headers().firstValue("Cache-Status").orElse("").endsWith("; collapsed") ? 1 : 0;
            }
            assertEquals(999, collapsed, "each answer says whether it joined another's call");
            assertEquals(1, api.events().stream().filter(e -> e.equals("start /item")).count(), "one upstream call for 1,000");
        }
    }

    @Test
    void theSharedCallGoesOnWhenTheRequestThatStartedItLeaves() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/item", "{\"v\":1}").hold("/item");
             FileGate g = FileGate.start(dir, routes(api.url() + "/item"),
                     List.of("{\"path\": \"/short\", \"policy\": \"single\", \"upstreams\": [\"item\"], \"timeout\": \"3s\"}",
                             "{\"path\": \"/long\", \"policy\": \"single\", \"upstreams\": [\"item\"], \"timeout\": \"30s\"}"))) {
            var first = g.client().http().sendAsync(HttpRequest.newBuilder(g.gate().uri("/short")).build(),
                    HttpResponse.BodyHandlers.ofString());
            api.await("start /item");
            var second = g.client().http().sendAsync(HttpRequest.newBuilder(g.gate().uri("/long")).build(),
                    HttpResponse.BodyHandlers.ofString());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> coalesced(g) == 1);
            assertEquals(504, first.get().statusCode(), "the starter's own deadline passed");
            assertTrue(api.events().stream().noneMatch(e -> e.startsWith("closed")), "the call goes on: " + api.events());
            api.release("/item");
            assertEquals(200, second.get().statusCode());
            assertEquals(1, api.events().stream().filter(e -> e.equals("start /item")).count());
        }
    }

    @Test
    void whenEveryWaiterHasLeftTheUpstreamSeesTheConnectionClosed() throws Exception {
        try (MisbehavingUpstream slow = MisbehavingUpstream.start();
             FileGate g = FileGate.start(dir, routes(slow.url("/slow?ms=60000")),
                     List.of("{\"path\": \"/short\", \"policy\": \"single\", \"upstreams\": [\"item\"], \"timeout\": \"3s\"}"))) {
            var a = g.client().http().sendAsync(HttpRequest.newBuilder(g.gate().uri("/short")).build(), HttpResponse.BodyHandlers.ofString());
            var b = g.client().http().sendAsync(HttpRequest.newBuilder(g.gate().uri("/short")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(504, a.get().statusCode());
            assertEquals(504, b.get().statusCode());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> slow.seen().size() == 1
                    && slow.seen().getFirst().closedAt != 0);
            assertEquals(1, slow.seen().size(), "the two shared one call");
        }
    }
}
