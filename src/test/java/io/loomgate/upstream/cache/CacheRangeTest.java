package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.testing.FileGate;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ranges through a proxy route's cache (RFC 9110 section 14): a stored whole 200 serves one byte
 * range as a 206, several as the whole 200, one past its end as a 416, and respects If-Range; an
 * upstream's own 206 is passed on and never stored as the whole.
 */
class CacheRangeTest {

    @TempDir
    Path dir;
    private HttpServer upstream;
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private static final String MODIFIED = "Tue, 15 Nov 1994 08:12:31 GMT";

    @BeforeEach
    void start() throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        upstream.createContext("/api/", exchange -> {
            try (exchange) {
                String path = exchange.getRequestURI().getPath();
                calls.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
                exchange.getResponseHeaders().set("Cache-Control", "max-age=3600");
                exchange.getResponseHeaders().set("ETag", "\"r1\"");
                exchange.getResponseHeaders().set("Last-Modified", MODIFIED);
                if (path.endsWith("/partial")) {   // an upstream that serves the range itself
                    exchange.getResponseHeaders().set("Content-Range", "bytes 0-1/10");
                    exchange.sendResponseHeaders(206, 2);
                    exchange.getResponseBody().write("01".getBytes(StandardCharsets.UTF_8));
                    return;
                }
                byte[] b = "0123456789".getBytes(StandardCharsets.UTF_8);
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

    private static HttpResponse<String> get(FileGate g, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(g.gate().uri(path));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return g.client().http().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String range(HttpResponse<String> r) {
        return r.statusCode() + " " + r.headers().firstValue("Content-Range").orElse("-") + " " + r.body();
    }

    @Test
    void aStoredWholeAnswerServesTheRangeAsked() throws Exception {
        try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + upstream.getAddress().getPort()
                + "/api/\", \"cache\": {\"maxBytes\": \"1MB\"}}", List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"))) {
            assertEquals("200 - 0123456789", range(get(g, "/p/doc")));
            assertEquals("206 bytes 2-4/10 234", range(get(g, "/p/doc", "Range", "bytes=2-4")));
            assertEquals("206 bytes 7-9/10 789", range(get(g, "/p/doc", "Range", "bytes=-3")));
            assertEquals("206 bytes 7-9/10 789", range(get(g, "/p/doc", "Range", "bytes=7-")));
            assertEquals("206 bytes 8-9/10 89", range(get(g, "/p/doc", "Range", "bytes=8-100")), "a last byte past the end is the end");
            assertEquals("416 bytes */10 ", range(get(g, "/p/doc", "Range", "bytes=10-")));
            assertEquals("200 - 0123456789", range(get(g, "/p/doc", "Range", "bytes=0-1,4-5")), "several ranges: the whole answer");
            assertEquals("200 - 0123456789", range(get(g, "/p/doc", "Range", "bytes=5-2")), "an invalid range is ignored");
            assertEquals("200 - 0123456789", range(get(g, "/p/doc", "Range", "items=0-1")), "another unit too");
            assertEquals("206 bytes 0-0/10 0", range(get(g, "/p/doc", "Range", "bytes=0-0", "If-Range", "\"r1\"")));
            assertEquals("206 bytes 0-0/10 0", range(get(g, "/p/doc", "Range", "bytes=0-0", "If-Range", MODIFIED)));
            assertEquals("200 - 0123456789", range(get(g, "/p/doc", "Range", "bytes=0-0", "If-Range", "\"r0\"")), "another version: whole");
            assertEquals("200 - 0123456789", range(get(g, "/p/doc", "Range", "bytes=0-0", "If-Range", "W/\"r1\"")), "a weak tag never matches");
            assertEquals(1, calls.get("/api/doc").get(), "all from the one stored answer");

            assertEquals("206 bytes 0-1/10 01", range(get(g, "/p/partial", "Range", "bytes=0-1")));
            assertEquals("206 bytes 0-1/10 01", range(get(g, "/p/partial")));
            assertEquals(2, calls.get("/api/partial").get(), "an upstream's 206 is passed on, never stored as the whole");
        }
    }
}
