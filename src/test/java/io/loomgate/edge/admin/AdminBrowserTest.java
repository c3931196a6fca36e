package io.loomgate.edge.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.RawHttp;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Browsers kept off the admin API, through raw sockets on the admin port: a DNS-rebinding page
 * (its own name in {@code Host}) gets 421 for every page, a cross-origin {@code POST /admin/reload}
 * or {@code DELETE /admin/cache/...} (a page on any site driving a visitor's browser) gets 403 and
 * reloads nothing, and curl, which sends neither {@code Origin} nor {@code Sec-Fetch-Site}, still works.
 */
class AdminBrowserTest {

    @TempDir
    Path dir;

    private Loomgate start(String... more) throws Exception {
        Path file = dir.resolve("routes.json");
        Files.writeString(file, """
                {"upstreams": [{"id": "api", "kind": "http", "url": "http://127.0.0.1:9/", "cache": {"maxBytes": "1MB"}}],
                 "routes": [{"path": "/p/*", "policy": "proxy", "upstreams": ["api"]}]}""");
        String[] args = new String[more.length + 6];
        System.arraycopy(new String[] {"--port", "0", "--admin-port", "0", "--routes", file.toString()}, 0, args, 0, 6);
        System.arraycopy(more, 0, args, 6, more.length);
        return Loomgate.start(CommandLine.config(args));
    }

    private static RawHttp.Answer send(Loomgate gate, String method, String path, String host, String... headers) {
        URI admin = gate.adminUri("/");
        StringBuilder r = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
        for (String h : headers) {
            r.append(h).append("\r\n");
        }
        r.append("Content-Length: 0\r\nConnection: close\r\n\r\n");
        return RawHttp.send(new InetSocketAddress("127.0.0.1", admin.getPort()), r.toString());
    }

    private static long reloads(Loomgate gate, int port) {
        String metrics = send(gate, "GET", "/metrics?format=prometheus", "127.0.0.1:" + port).text();
        return metrics.lines().filter(l -> l.startsWith("loomgate_config_reloads_total") && !l.startsWith("#"))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void aRebindingHostGets421OnEveryAdminPage() throws Exception {
        try (Loomgate gate = start()) {
            int port = gate.adminUri("/").getPort();
            for (String path : new String[] {"/admin/config", "/debug/requests", "/metrics", "/dashboard"}) {
                RawHttp.Answer rebound = send(gate, "GET", path, "attacker.example:" + port);
                assertEquals(421, rebound.status(), path + ": " + rebound.text());
                assertFalse(rebound.text().contains("attacker.example"), "the refused Host is not echoed");
                assertFalse(rebound.text().contains("\"upstreams\""), "nothing of the config leaks");
            }
            assertEquals(200, send(gate, "GET", "/admin/config", "127.0.0.1:" + port).status());
            assertEquals(200, send(gate, "GET", "/admin/config", "localhost:" + port).status());
            assertEquals(421, send(gate, "GET", "/admin/config", "localhost:" + (port == 1 ? 2 : port - 1)).status(),
                    "another port is another origin");
        }
    }

    @Test
    void aCrossOriginStateChangeGets403AndChangesNothing() throws Exception {
        try (Loomgate gate = start()) {
            int port = gate.adminUri("/").getPort();
            String host = "127.0.0.1:" + port;
            long before = reloads(gate, port);
            RawHttp.Answer fromPage = send(gate, "POST", "/admin/reload", host, "Origin: https://evil.example",
                    "Sec-Fetch-Site: cross-site", "Content-Type: text/plain");
            assertEquals(403, fromPage.status(), fromPage.text());
            assertFalse(fromPage.text().contains("evil.example"));
            assertEquals(403, send(gate, "POST", "/admin/reload", host, "Sec-Fetch-Site: same-site").status(),
                    "a sibling site is not the listener's own origin");
            assertEquals(403, send(gate, "POST", "/admin/reload", host, "Origin: null").status());
            assertEquals(403, send(gate, "DELETE", "/admin/cache/api", host, "Origin: http://localhost:" + port).status(),
                    "localhost is another origin than 127.0.0.1");
            assertEquals(before, reloads(gate, port), "nothing was reloaded");

            RawHttp.Answer curl = send(gate, "POST", "/admin/reload", host);
            assertEquals(200, curl.status(), curl.text());
            assertEquals(200, send(gate, "POST", "/admin/reload", host, "Origin: http://" + host, "Sec-Fetch-Site: same-origin").status(),
                    "the admin listener's own page");
            assertEquals(200, send(gate, "DELETE", "/admin/cache/api", host, "Sec-Fetch-Site: none").status());
            assertTrue(reloads(gate, port) >= before + 2);
        }
    }

    @Test
    void adminNamesAddsANameAndTheMainPortIsUnchanged() throws Exception {
        try (Loomgate gate = start("--admin-names", "ops.example")) {
            int port = gate.adminUri("/").getPort();
            assertEquals(200, send(gate, "GET", "/admin/config", "ops.example:" + port).status());
            assertEquals(421, send(gate, "GET", "/admin/config", "other.example:" + port).status());
            RawHttp.Answer main = RawHttp.send(new InetSocketAddress("127.0.0.1", gate.baseUri().getPort()),
                    "GET /health HTTP/1.1\r\nHost: api.example.com\r\nConnection: close\r\n\r\n");
            assertEquals(200, main.status(), "the main listener serves any Host");
        }
    }
}
