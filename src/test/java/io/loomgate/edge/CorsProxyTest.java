package io.loomgate.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.FileGate;
import io.loomgate.testing.ScriptedUpstream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CORS route in front of an upstream that has CORS headers of its own, reflecting any Origin with
 * credentials, as careless servers do: the route's settings decide, the upstream's are dropped, and
 * its {@code Vary} is kept with {@code Origin} added.
 */
class CorsProxyTest {

    @TempDir
    Path dir;

    @Test
    void theRouteOwnsTheCorsHeadersOfAProxiedAnswer() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start()) {
            up.script("reflect", (request, socket, out) -> {
                String origin = request.header("Origin") == null ? "*" : request.header("Origin");
                ScriptedUpstream.write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
                        + "Access-Control-Allow-Origin: " + origin + "\r\nAccess-Control-Allow-Credentials: true\r\n"
                        + "access-control-expose-headers: X-Secret\r\nTiming-Allow-Origin: *\r\n"
                        + "Vary: Accept-Encoding\r\n\r\n{}");
                return true;
            });
            try (FileGate g = FileGate.start(dir, "{\"id\": \"up\", \"kind\": \"http\", \"url\": \"" + up.url("") + "\"}",
                    List.of("""
                            {"path": "/px/*", "policy": "proxy", "upstreams": ["up"],
                             "cors": {"origins": ["https://good.example"], "credentials": true}}"""))) {
                HttpResponse<String> evil = g.client().get("/px/case/reflect", "Origin", "https://evil.example");
                assertEquals(200, evil.statusCode());
                assertTrue(evil.headers().firstValue("Access-Control-Allow-Origin").isEmpty(),
                        "the upstream's reflected origin never reaches a page of another origin: " + evil.headers().map());
                assertTrue(evil.headers().firstValue("Access-Control-Allow-Credentials").isEmpty());
                assertTrue(evil.headers().firstValue("Access-Control-Expose-Headers").isEmpty());
                assertTrue(evil.headers().firstValue("Timing-Allow-Origin").isEmpty());
                assertEquals(List.of("Accept-Encoding, Origin"), evil.headers().allValues("Vary"),
                        "Origin is added to the upstream's Vary, never put in its place");

                HttpResponse<String> good = g.client().get("/px/case/reflect", "Origin", "https://good.example");
                assertEquals("https://good.example", good.headers().firstValue("Access-Control-Allow-Origin").orElseThrow());
                assertEquals("true", good.headers().firstValue("Access-Control-Allow-Credentials").orElseThrow());
                assertTrue(!good.headers().firstValue("Access-Control-Expose-Headers").orElseThrow().contains("X-Secret"),
                        "what a page may read is the route's list, not the upstream's");
                assertEquals(List.of("Accept-Encoding, Origin"), good.headers().allValues("Vary"));
            }
        }
    }
}
