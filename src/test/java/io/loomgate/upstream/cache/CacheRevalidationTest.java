package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.testing.FileGate;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Revalidation on a proxy route (RFC 9111 section 4.3): a stored answer that may not be served
 * without asking (stale, or stored with {@code no-cache}) is asked for again with its
 * {@code If-None-Match} and {@code If-Modified-Since}; a {@code 304} serves the stored body with the
 * stored fields updated by the 304's, a {@code 200} replaces it; the client's own conditions are
 * answered from the result; identical revalidations share one upstream call. The upstream is
 * written here: it records the conditional fields of every request it gets.
 */
class CacheRevalidationTest {

    @TempDir
    Path dir;
    private HttpServer upstream;
    /** Each request the upstream got: "If-None-Match|If-Modified-Since" ("-" for none). */
    private final BlockingQueue<String> asked = new LinkedBlockingQueue<>();
    private volatile String etag = "\"v1\"";
    private volatile String body = "version one";
    private volatile String cacheControl = "max-age=0";
    private volatile String notModifiedCacheControl = "max-age=60";
    private volatile CountDownLatch hold = new CountDownLatch(0);
    /** The ETag a 304 names; null for the one asked about. */
    private volatile String notModifiedEtag;

    @BeforeEach
    void start() throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        upstream.createContext("/api/", exchange -> {
            try (exchange) {
                String inm = exchange.getRequestHeaders().getFirst("If-None-Match");
                String ims = exchange.getRequestHeaders().getFirst("If-Modified-Since");
                asked.add((inm == null ? "-" : inm) + "|" + (ims == null ? "-" : ims));
                try {
                    hold.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                exchange.getResponseHeaders().set("ETag", etag);
                exchange.getResponseHeaders().set("Last-Modified", "Tue, 15 Nov 1994 08:12:31 GMT");
                if (etag.equals(inm)) {
                    if (notModifiedEtag != null) {
                        exchange.getResponseHeaders().set("ETag", notModifiedEtag);
                    }
                    exchange.getResponseHeaders().set("Cache-Control", notModifiedCacheControl);
                    exchange.getResponseHeaders().set("X-Checked", "by the 304");
                    exchange.sendResponseHeaders(304, -1);
                    return;
                }
                byte[] b = body.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Cache-Control", cacheControl);
                exchange.getResponseHeaders().set("X-Checked", "by the 200");
                exchange.getResponseHeaders().set("Content-Type", "text/plain");
                exchange.sendResponseHeaders(200, b.length);
                exchange.getResponseBody().write(b);
            }
        });
        upstream.start();
    }

    @AfterEach
    void stop() {
        upstream.stop(0);
    }

    private FileGate gate() throws Exception {
        return FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + upstream.getAddress().getPort()
                + "/api/\", \"cache\": {\"maxBytes\": \"1MB\"}}", List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"], \"timeout\": \"30s\"}"));
    }

    private static HttpResponse<String> get(FileGate g, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(g.gate().uri(path));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return g.client().http().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String cacheStatus(HttpResponse<String> r) {
        return r.headers().firstValue("Cache-Status").orElse("");
    }

    @Test
    void aStaleAnswerIsRevalidatedAndA304ServesItWithTheNewFields() throws Exception {
        try (FileGate g = gate()) {
            HttpResponse<String> first = get(g, "/p/doc");
            assertEquals("version one", first.body());
            assertEquals("-|-", asked.poll(), "the miss went plainly");
            assertTrue(cacheStatus(first).endsWith("fwd=miss"), cacheStatus(first));

            HttpResponse<String> second = get(g, "/p/doc");   // max-age=0: stale at once
            assertEquals(200, second.statusCode());
            assertEquals("version one", second.body(), "the stored body, served after the 304");
            assertEquals("\"v1\"|Tue, 15 Nov 1994 08:12:31 GMT", asked.poll(), "asked with the stored validators");
            assertEquals("by the 304", second.headers().firstValue("X-Checked").orElse(""), "the 304's fields replace the stored ones");
            assertEquals("max-age=60", second.headers().firstValue("Cache-Control").orElse(""));
            assertTrue(cacheStatus(second).endsWith("fwd=stale; fwd-status=304; stored"), cacheStatus(second));

            HttpResponse<String> third = get(g, "/p/doc");   // fresh now, by the 304's max-age
            assertEquals("version one", third.body());
            assertTrue(cacheStatus(third).contains("hit"), cacheStatus(third));
            assertEquals(null, asked.poll(), "a fresh hit asks nothing");
        }
    }

    @Test
    void aNewVersionReplacesTheStoredOne() throws Exception {
        try (FileGate g = gate()) {
            get(g, "/p/doc");
            asked.clear();
            etag = "\"v2\"";
            body = "version two";
            cacheControl = "max-age=60";
            HttpResponse<String> second = get(g, "/p/doc");
            assertEquals("\"v1\"|Tue, 15 Nov 1994 08:12:31 GMT", asked.poll());
            assertEquals("version two", second.body());
            assertTrue(cacheStatus(second).endsWith("fwd=stale; fwd-status=200"), cacheStatus(second));
            HttpResponse<String> third = get(g, "/p/doc");
            assertEquals("version two", third.body(), "the 200 was stored in place of the old answer");
            assertTrue(cacheStatus(third).contains("hit"), cacheStatus(third));
        }
    }

    @Test
    void anAnswerStoredWithNoCacheIsRevalidatedEveryTime() throws Exception {
        cacheControl = "no-cache, max-age=3600";
        notModifiedCacheControl = "no-cache, max-age=3600";
        try (FileGate g = gate()) {
            get(g, "/p/doc");
            asked.clear();
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> r = get(g, "/p/doc");
                assertEquals("version one", r.body());
                assertTrue(cacheStatus(r).contains("fwd=stale; fwd-status=304"), cacheStatus(r));
                assertEquals("\"v1\"|Tue, 15 Nov 1994 08:12:31 GMT", asked.poll(), "fresh by max-age, yet asked: no-cache");
            }
        }
    }

    @Test
    void theClientsOwnConditionIsAnsweredFromTheRevalidatedAnswer() throws Exception {
        notModifiedCacheControl = "max-age=0";   // stale again at once: each request revalidates
        try (FileGate g = gate()) {
            get(g, "/p/doc");
            asked.clear();
            HttpResponse<String> theirs = get(g, "/p/doc", "If-None-Match", "\"v1\"");
            assertEquals(304, theirs.statusCode(), "the client has it");
            assertEquals("\"v1\"|Tue, 15 Nov 1994 08:12:31 GMT", asked.poll(), "the upstream was asked with the stored validators");
            HttpResponse<String> other = get(g, "/p/doc", "If-None-Match", "\"v0\"");
            assertEquals(200, other.statusCode(), "the client's is another version: it gets the stored one whole");
            assertEquals("version one", other.body());
            assertEquals("\"v1\"|Tue, 15 Nov 1994 08:12:31 GMT", asked.poll(), "not the client's \"v0\": the stored answer's own");
            HttpResponse<String> since = get(g, "/p/doc", "If-Modified-Since", "Tue, 15 Nov 1994 08:12:31 GMT");
            assertEquals(304, since.statusCode(), "its If-Modified-Since is the stored Last-Modified: it has this version");
            HttpResponse<String> before = get(g, "/p/doc", "If-Modified-Since", "Mon, 14 Nov 1994 08:12:31 GMT");
            assertEquals(200, before.statusCode(), "a version older than the stored one");
        }
    }

    @Test
    void identicalRevalidationsShareOneUpstreamCall() throws Exception {
        try (FileGate g = gate()) {
            get(g, "/p/doc");
            asked.clear();
            hold = new CountDownLatch(1);
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                all.add(g.client().http().sendAsync(HttpRequest.newBuilder(g.gate().uri("/p/doc")).build(), HttpResponse.BodyHandlers.ofString()));
            }
            assertEquals("\"v1\"|Tue, 15 Nov 1994 08:12:31 GMT", asked.poll(60, TimeUnit.SECONDS));
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> g.client().get("/metrics?format=prometheus").body()
                    .contains("loomgate_cache_lock_waiting{service=\"api\"} 19"));
            hold.countDown();
            for (var r : all) {
                assertEquals(200, r.get().statusCode());
                assertEquals("version one", r.get().body());
            }
            assertEquals(null, asked.poll(), "one revalidation for twenty requests");
        }
    }

    @Test
    void a304NamingAnotherRepresentationUpdatesNothing() throws Exception {
        notModifiedEtag = "\"v2\"";
        try (FileGate g = gate()) {
            get(g, "/p/doc");
            HttpResponse<String> second = get(g, "/p/doc");   // max-age=0: revalidated with If-None-Match "v1"
            assertEquals("\"v1\"|Tue, 15 Nov 1994 08:12:31 GMT", asked.stream().skip(1).findFirst().orElse(""));
            assertEquals(200, second.statusCode());
            assertEquals("version one", second.body());
            assertEquals("\"v1\"", second.headers().firstValue("ETag").orElse(""), "RFC 9111 4.3.4: a 304 for \"v2\" selects no stored answer");
            assertEquals("by the 200", second.headers().firstValue("X-Checked").orElse(""), "none of the 304's fields taken");
            assertTrue(!cacheStatus(second).contains("stored"), cacheStatus(second));
        }
    }
}
