package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.testing.ChildProcess;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.LocalTools;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same requests through loomgate's proxy cache and nginx's ({@code proxy_cache},
 * {@code proxy_cache_revalidate on}), each in front of its own copy of one upstream written here,
 * which records what it is asked: revalidation, invalidation and ranges, side by side. Where the
 * two differ, the test says which does what, and docs/caching.md's table says the same.
 */
class CacheNginxSideBySideTest {

    /** An upstream that records "METHOD PATH If-None-Match" of each request, and answers each path as its name says. */
    static final class Upstream implements AutoCloseable {
        final List<String> seen = new CopyOnWriteArrayList<>();
        final HttpServer server;

        Upstream() throws Exception {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
            server.createContext("/", exchange -> {
                try (exchange) {
                    String path = exchange.getRequestURI().getPath();
                    String inm = exchange.getRequestHeaders().getFirst("If-None-Match");
                    seen.add(exchange.getRequestMethod() + " " + path + " " + (inm == null ? "-" : inm));
                    exchange.getRequestBody().readAllBytes();
                    if (!exchange.getRequestMethod().equals("GET")) {
                        exchange.sendResponseHeaders(204, -1);
                        return;
                    }
                    exchange.getResponseHeaders().set("Cache-Control", path.startsWith("/short") ? "max-age=1" : "max-age=3600");
                    exchange.getResponseHeaders().set("ETag", "\"v1\"");
                    exchange.getResponseHeaders().set("Last-Modified", "Tue, 15 Nov 1994 08:12:31 GMT");
                    if ("\"v1\"".equals(inm)) {
                        exchange.sendResponseHeaders(304, -1);
                        return;
                    }
                    byte[] b = "0123456789".getBytes(StandardCharsets.UTF_8);
                    exchange.sendResponseHeaders(200, b.length);
                    exchange.getResponseBody().write(b);
                }
            });
            server.start();
        }

        int port() {
            return server.getAddress().getPort();
        }

        long count(String request) {
            return seen.stream().filter(request::equals).count();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    private static HttpResponse<String> send(HttpClient c, URI base, String method, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).method(method,
                method.equals("GET") ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString("x"));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return c.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The scenario, run against one front end; what its upstream saw, and what its client got, in order. */
    private static List<String> scenario(HttpClient c, URI base, Upstream up) throws Exception {
        List<String> got = new CopyOnWriteArrayList<>();
        // revalidation: stored, stale after its one second, asked again with its validators, a 304 serving the stored body
        got.add("revalidate " + send(c, base, "GET", "/short/doc").body());
        Thread.sleep(2_100);   // max-age=1: past it however slow the machine is
        HttpResponse<String> again = send(c, base, "GET", "/short/doc");
        got.add("revalidate " + again.statusCode() + " " + again.body());
        got.add("upstream saw the stored ETag: " + up.count("GET /short/doc \"v1\""));
        // invalidation: stored, a POST to the same URI, the next GET
        send(c, base, "GET", "/long/doc");
        send(c, base, "GET", "/long/doc");
        got.add("post " + send(c, base, "POST", "/long/doc").statusCode());
        send(c, base, "GET", "/long/doc");
        got.add("GETs of /long/doc that reached the upstream: " + up.count("GET /long/doc -"));
        // ranges: the stored whole answer serves a byte range
        HttpResponse<String> part = send(c, base, "GET", "/long/doc", "Range", "bytes=2-4");
        got.add("range " + part.statusCode() + " " + part.headers().firstValue("Content-Range").orElse("-") + " " + part.body());
        return got;
    }

    @Test
    void revalidationInvalidationAndRangesAgainstNginx(@TempDir Path dir) throws Exception {
        Path nginx = LocalTools.installed("nginx").orElseThrow(() -> new AssertionError(
                "nginx is not installed, and this test runs it beside loomgate (install it: sudo apt-get install nginx-light)"));
        int port = LocalTools.freePort();
        try (Upstream forNginx = new Upstream(); Upstream forLoomgate = new Upstream(); HttpClient client = HttpClient.newHttpClient()) {
            Files.createDirectories(dir.resolve("cache"));
            Path conf = LocalTools.nginxConfig(dir, """
                    proxy_cache_path %s/cache levels=1:2 keys_zone=z:1m;
                      server { listen 127.0.0.1:%d;
                        location / { proxy_pass http://127.0.0.1:%d; proxy_cache z; proxy_cache_revalidate on; } }"""
                    .formatted(dir, port, forNginx.port()));
            try (ChildProcess n = ChildProcess.start(List.of(nginx.toString(), "-g", "daemon off;", "-p", dir.toString(), "-c", conf.toString()),
                         Map.of(), dir);
                 FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + forLoomgate.port()
                         + "/\", \"cache\": {\"maxBytes\": \"1MB\"}}", List.of("{\"path\": \"/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"))) {
                URI nginxBase = URI.create("http://127.0.0.1:" + port + "/");
                org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() -> {
                    assertTrue(n.isAlive(), "nginx exited: " + n.stderr());
                    try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                        return true;
                    } catch (java.io.IOException e) {
                        return false;
                    }
                });
                List<String> ours = scenario(client, g.gate().uri("/"), forLoomgate);
                List<String> theirs = scenario(client, nginxBase, forNginx);
                assertEquals(List.of("revalidate 0123456789", "revalidate 200 0123456789", "upstream saw the stored ETag: 1", "post 204",
                        "GETs of /long/doc that reached the upstream: 2", "range 206 bytes 2-4/10 234"), ours, "loomgate");
                assertEquals(List.of("revalidate 0123456789", "revalidate 200 0123456789", "upstream saw the stored ETag: 1", "post 204",
                        "GETs of /long/doc that reached the upstream: 1", "range 200 - 0123456789"), theirs,
                        "nginx: the same revalidation, but a POST invalidates nothing (RFC 9111 section 4.4 says it must), and a range"
                        + " is served from its cache only when the upstream said Accept-Ranges (or proxy_force_ranges is on)");
            }
        }
    }
}
