package io.loomgate.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.Chromium;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CORS as a browser does it: headless Chromium opens a page on one origin, and the page fetches from
 * loomgate on another with a header that needs a preflight. From the allowed origin the fetch
 * succeeds and the page can read loomgate's headers; from another origin, or on a route without
 * CORS, the browser blocks it. loomgate answered every preflight itself: the upstream saw none.
 */
class CorsBrowserTest {

    @Test
    void aPageFromAnAllowedOriginReadsTheAnswerAndAnyOtherIsBlocked(@TempDir Path dir) throws Exception {
        Optional<Path> chromium = Chromium.find();
        if (chromium.isEmpty()) {
            System.out.println("CorsBrowserTest: SKIPPED: no chromium at /usr/bin/chromium or $LOOMGATE_CHROMIUM"
                    + " (install: sudo apt-get install chromium)");
        }
        Assumptions.assumeTrue(chromium.isPresent(), "chromium is not installed");
        HttpServer pages = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
        pages.createContext("/", exchange -> {
            byte[] page = "<!doctype html><title>another origin</title>".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html");
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        pages.start();
        String allowed = "http://localhost:" + pages.getAddress().getPort();
        try (ApiUpstream api = ApiUpstream.start().answer("/data", "{\"ok\":true}")) {
            Files.writeString(dir.resolve("routes.json"), """
                    {"upstreams": [{"id": "api", "kind": "http", "url": "%s/data"}],
                     "routes": [
                       {"path": "/shared", "policy": "single", "upstreams": ["api"], "answer": "value",
                        "cors": {"origins": ["%s"], "methods": ["GET"], "headers": ["X-Trace"], "maxAge": "1m"}},
                       {"path": "/private", "policy": "single", "upstreams": ["api"], "answer": "value"}]}
                    """.formatted(api.url(), allowed));
            try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", dir.resolve("routes.json").toString()));
                 Chromium browser = Chromium.launch(chromium.get())) {
                String fetch = "fetch('%s', {headers: {'X-Trace': '1'}}).then(r => r.status + ' ' + r.headers.get('X-Request-Id'),"
                        + " e => 'blocked')";

                browser.open(allowed + "/page");
                browser.await("document.title === 'another origin'", Duration.ofSeconds(15));
                String shared = (String) browser.eval(fetch.formatted(gate.baseUri() + "/shared"));
                assertTrue(shared.matches("200 \\S+-\\d+"), "the allowed origin reads the answer and its X-Request-Id: " + shared);
                assertEquals("blocked", browser.eval(fetch.formatted(gate.baseUri() + "/private")), "a route without CORS");

                browser.open("http://127.0.0.1:" + pages.getAddress().getPort() + "/page");
                browser.await("document.title === 'another origin'", Duration.ofSeconds(15));
                assertEquals("blocked", browser.eval(fetch.formatted(gate.baseUri() + "/shared")), "an origin not in the list");
            }
            assertEquals(1, api.requests().size(), "only the allowed fetch reached the upstream: " + api.requests());
            assertEquals("GET", api.requests().getFirst().method(), "loomgate answered the preflights itself");
        } finally {
            pages.stop(0);
        }
    }
}
