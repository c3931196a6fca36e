package io.loomgate.upstream.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.testing.FileGate;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a proxy route rewrites, seen from both ends through real sockets: the upstream records each
 * request's target and headers; the client sees the answer's headers. The path rewrite, header
 * rules with templates, the upstream's own {@code Host} (or the client's with preserveHost),
 * {@code X-Forwarded-Host}, {@code -Port} and {@code -Prefix} (or RFC 7239's {@code Forwarded}),
 * redirects brought back through the gateway, and cookie paths and domains.
 */
class ProxyRewriteGatewayTest {

    @TempDir
    Path dir;
    private HttpServer upstream;
    private final ConcurrentLinkedQueue<Map<String, String>> seen = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void start() throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        upstream.createContext("/up/", x -> {
            Map<String, String> r = new ConcurrentHashMap<>();
            r.put(":target", x.getRequestURI().toString());
            x.getRequestHeaders().forEach((k, v) -> r.put(k.toLowerCase(java.util.Locale.ROOT), String.join(",", v)));
            seen.add(r);
            String path = x.getRequestURI().getPath();
            if (path.equals("/up/redirect-to")) {
                x.getResponseHeaders().set("Location", "http://127.0.0.1:" + upstream.getAddress().getPort() + "/up/get?a=1");
                x.sendResponseHeaders(302, -1);
            } else {
                if (path.equals("/up/cookie")) {
                    x.getResponseHeaders().add("Set-Cookie", "sid=1; Path=/up/; Domain=backend.internal; HttpOnly");
                }
                x.getResponseHeaders().set("Server", "upstream/1.0");
                byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
                x.sendResponseHeaders(200, body.length);
                x.getResponseBody().write(body);
            }
            x.close();
        });
        upstream.start();
    }

    @AfterEach
    void stop() {
        upstream.stop(0);
    }

    private FileGate gate(String upstreamMore) throws Exception {
        return FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + upstream.getAddress().getPort()
                        + "/up/\"" + upstreamMore + "}",
                List.of("""
                        {"path": "/p/*", "policy": "proxy", "upstreams": ["api"],
                         "rewrite": {"regex": "^old/(.*)$", "replace": "new/$1"},
                         "requestHeaders": {"remove": ["X-Drop"], "set": {"X-User": "{header.X-Who}"}, "add": {"X-Client": "{client.ip}", "X-Q": "q={query.q}"}},
                         "responseHeaders": {"remove": ["Server"], "set": {"X-Served-By": "loomgate"}},
                         "cookiePath": {"/up/": "/p/"}, "cookieDomain": {"backend.internal": "example.com"}}"""));
    }

    private static HttpResponse<String> get(FileGate g, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(g.gate().uri(path));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try (HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build()) {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void thePathAndHeadersAreRewrittenAsTheRouteSays() throws Exception {
        try (FileGate g = gate("")) {
            int port = g.gate().baseUri().getPort();
            HttpResponse<String> r = get(g, "/p/old/x?q=1", "X-Who", "ada", "X-Drop", "secret");
            assertEquals(200, r.statusCode(), r.body());
            Map<String, String> at = seen.poll();
            assertEquals("/up/new/x?q=1", at.get(":target"), "rewritten below the prefix, the query kept");
            assertEquals("ada", at.get("x-user"));
            assertEquals("127.0.0.1", at.get("x-client"));
            assertEquals("q=1", at.get("x-q"));
            assertNull(at.get("x-drop"));
            assertEquals("127.0.0.1:" + upstream.getAddress().getPort(), at.get("host"), "the upstream's own Host, as nginx sends");
            assertEquals("127.0.0.1:" + port, at.get("x-forwarded-host"));
            assertEquals(String.valueOf(port), at.get("x-forwarded-port"));
            assertEquals("/p", at.get("x-forwarded-prefix"));
            assertEquals("http", at.get("x-forwarded-proto"));
            assertNull(at.get("forwarded"));
            assertEquals("loomgate", r.headers().firstValue("X-Served-By").orElse(""));
            assertFalse(r.headers().firstValue("Server").orElse("").contains("upstream"), r.headers().map().toString());

            assertEquals(400, get(g, "/p/x?q=a%0Db").statusCode(), "a value with a control character is refused, never sent");
        }
    }

    @Test
    void redirectsAndCookiesComeBackThroughTheGateway() throws Exception {
        try (FileGate g = gate("")) {
            int port = g.gate().baseUri().getPort();
            HttpResponse<String> redirect = get(g, "/p/redirect-to");
            assertEquals(302, redirect.statusCode());
            assertEquals("http://127.0.0.1:" + port + "/p/get?a=1", redirect.headers().firstValue("Location").orElse(""),
                    "the upstream's address never reaches the client");
            HttpResponse<String> cookie = get(g, "/p/cookie");
            assertEquals("sid=1; Path=/p/; Domain=example.com; HttpOnly", cookie.headers().firstValue("Set-Cookie").orElse(""));
        }
    }

    @Test
    void preserveHostSendsTheClientsHostAndRfc7239SaysWhereItCameFrom() throws Exception {
        try (FileGate g = gate(", \"preserveHost\": true, \"forwarded\": \"rfc7239\"")) {
            int port = g.gate().baseUri().getPort();
            assertEquals(200, get(g, "/p/x", "X-Forwarded-Host", "spoofed.example", "Forwarded", "for=6.6.6.6").statusCode());
            Map<String, String> at = seen.poll();
            assertEquals("127.0.0.1:" + port, at.get("host"));
            assertEquals("for=127.0.0.1;proto=http;host=\"127.0.0.1:" + port + "\"", at.get("forwarded"), "a stranger's own is replaced");
            assertNull(at.get("x-forwarded-host"), "only RFC 7239's: the client's X-Forwarded-Host is dropped");
            assertNull(at.get("x-forwarded-for"));
        }
    }
}
