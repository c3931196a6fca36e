package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.Chromium;
import io.loomgate.testing.TestClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard in a real headless Chromium against a real loomgate: it loads without a console
 * error, shows the numbers {@code /metrics?format=json} shows, and, when a failed {@code /aggregate}
 * is clicked, draws its timeline with {@code db} cancelled. Skipped, with the reason printed, where
 * Chromium is not installed ({@code scripts/test} installs Debian's {@code chromium} where it may).
 */
class DashboardBrowserTest {

    private static Loomgate gate;
    private static TestClient client;
    private static Chromium browser;

    @BeforeAll
    static void start() throws Exception {
        Optional<Path> chromium = Chromium.find();
        if (chromium.isEmpty()) {
            System.out.println("DashboardBrowserTest: SKIPPED: no chromium at /usr/bin/chromium or $LOOMGATE_CHROMIUM"
                    + " (install: sudo apt-get install chromium)");
        }
        Assumptions.assumeTrue(chromium.isPresent(), "chromium is not installed");
        gate = Loomgate.start(CommandLine.config("--port", "0"));
        client = new TestClient(gate.baseUri());
        browser = Chromium.launch(chromium.get());
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (client != null) {
            client.close();
            gate.close();
        }
    }

    @Test
    void theAdminApiIsAnOperatorEndpointHiddenUntilAsked() throws Exception {
        try (Loomgate admin = Loomgate.start(CommandLine.config("--port", "0", "--admin-port", "0"));
             TestClient c = new TestClient(admin.baseUri())) {
            c.get("/aggregate");
            try (java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient()) {
                http.send(java.net.http.HttpRequest.newBuilder(admin.adminUri("/admin/config")).build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding());
            }
            browser.open(admin.adminUri("/dashboard").toString());
            browser.await("document.querySelector('tr[data-route=\"/aggregate\"]')", Duration.ofSeconds(10));
            assertEquals(Boolean.FALSE, browser.eval("!!document.querySelector('tr[data-route=\"/admin/config\"]')"),
                    "the operator box is unchecked: /admin/* is not listed");
            browser.eval("document.getElementById('showOperator').click()");
            browser.await("document.querySelector('tr[data-route=\"/admin/config\"]')", Duration.ofSeconds(10));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theDashboardShowsLiveNumbersAndATimelineWithDbCancelled() throws Exception {
        int known = 7;
        for (int i = 0; i < known; i++) {
            assertEquals(200, client.get("/cache?delay=cache:5ms").statusCode());
        }
        String failed = client.get("/aggregate?fail=file&delay=file:50ms").headers().firstValue("X-Request-Id").orElseThrow();

        browser.open(gate.baseUri() + "/dashboard");
        browser.await("document.body.dataset.updated", Duration.ofSeconds(15));
        String cacheRequests = (String) browser.await(
                "document.querySelector('tr[data-route=\"/cache\"] td[data-field=requests]')?.textContent", Duration.ofSeconds(5));
        Map<String, Object> metrics = client.getJson("/metrics?format=json");
        Map<String, Object> cache = (Map<String, Object>) ((Map<String, Object>) metrics.get("routes")).get("/cache");
        assertEquals(String.valueOf(known), cacheRequests);
        assertEquals((long) known, cache.get("requests"), "the dashboard and /metrics agree");
        Map<String, Object> lastMinute = (Map<String, Object>) cache.get("lastMinute");
        String p50 = (String) browser.eval("document.querySelector('tr[data-route=\"/cache\"] td[data-field=p50]').textContent");
        assertEquals(String.format(java.util.Locale.US, "%.1f", ((Number) lastMinute.get("p50Ms")).doubleValue()), p50);
        String aggregateErrors = (String) browser.eval(
                "document.querySelector('tr[data-route=\"/aggregate\"] td[data-field=errorRate]').textContent");
        assertEquals("100.0", aggregateErrors, "one request on /aggregate, and it failed");
        String shed = (String) browser.eval("document.getElementById('shed').textContent");
        assertEquals(String.valueOf(((Map<String, Object>) metrics.get("server")).get("shed")), shed);

        browser.await("document.querySelector('tr[data-id=\"" + failed + "\"]')", Duration.ofSeconds(5));
        browser.eval("document.querySelector('tr[data-id=\"" + failed + "\"]').click()");
        Object db = browser.await("document.querySelector('#timeline rect[data-service=db]')?.dataset.outcome",
                Duration.ofSeconds(5));
        assertEquals("cancelled", db);
        assertEquals("failed", browser.eval("document.querySelector('#timeline rect[data-service=file]').dataset.outcome"));
        String title = (String) browser.eval("document.getElementById('timelineTitle').textContent");
        assertTrue(title.contains(failed) && title.contains("failed"), title);

        Path shot = Path.of("target", "dashboard.png");
        Files.write(shot, browser.screenshot());
        List<String> errors = browser.errors();
        assertTrue(errors.isEmpty(), "the page logged errors: " + errors);
    }

    @Test
    void aComposedRequestsTimelineDrawsEachCallFromItsStart(@TempDir Path dir) throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/users/7", "{\"teamId\":3}").answer("/teams/3", "{\"name\":\"x\"}")) {
            Path routes = dir.resolve("routes.json");
            Files.writeString(routes, """
                    {"upstreams": [{"id": "users", "kind": "http", "url": "%s"}],
                     "routes": [{"path": "/users/{id}/team", "policy": "compose",
                                 "calls": {"user": {"upstream": "users", "path": "/users/{id}"},
                                           "team": {"upstream": "users", "path": "/teams/{user.teamId}"}}}]}
                    """.formatted(api.url()));
            try (Loomgate composing = Loomgate.start(CommandLine.config("--port", "0", "--routes", routes.toString()));
                 TestClient c = new TestClient(composing.baseUri())) {
                String id = c.get("/users/7/team").headers().firstValue("X-Request-Id").orElseThrow();
                browser.open(composing.baseUri() + "/dashboard");
                browser.await("document.querySelector('tr[data-id=\"" + id + "\"]')", Duration.ofSeconds(15));
                browser.eval("document.querySelector('tr[data-id=\"" + id + "\"]').click()");
                browser.await("document.querySelector('#timeline rect[data-service=team]')", Duration.ofSeconds(5));
                double userEnd = ((Number) browser.eval("(r => r.x.baseVal.value + r.width.baseVal.value)("
                        + "document.querySelector('#timeline rect[data-service=user]'))")).doubleValue();
                double teamStart = ((Number) browser.eval(
                        "document.querySelector('#timeline rect[data-service=team]').x.baseVal.value")).doubleValue();
                assertTrue(teamStart >= userEnd - 2.5, "team's bar begins where user's ends (a 2 px bar may round): "
                        + userEnd + " -> " + teamStart);
                assertTrue(((String) browser.eval("document.getElementById('timelineTitle').textContent")).contains("compose"));
                assertTrue(browser.errors().isEmpty(), "the page logged errors: " + browser.errors());
            }
        }
    }

    @Test
    void theEndpointsOfAnUpstreamWithSeveralAreListedWithTheirState(@TempDir Path dir) throws Exception {
        try (ApiUpstream a = ApiUpstream.start().answer("/api", "{}"); ApiUpstream b = ApiUpstream.start().answer("/api", "{}")) {
            String dead = "127.0.0.1:" + io.loomgate.testing.MisbehavingUpstream.refusedPort();
            Path routes = dir.resolve("routes.json");
            Files.writeString(routes, """
                    {"upstreams": [{"id": "api", "kind": "http", "endpoints": ["%s/api", "%s/api", "http://%s/api"],
                                    "balance": "round-robin", "outliers": {"consecutiveFailures": 1, "baseEjection": "1m"}}],
                     "routes": [{"path": "/x", "policy": "single", "upstreams": ["api"]}]}
                    """.formatted(a.url(), b.url(), dead));
            try (Loomgate fleet = Loomgate.start(CommandLine.config("--port", "0", "--routes", routes.toString()));
                 TestClient c = new TestClient(fleet.baseUri())) {
                for (int i = 0; i < 6; i++) {
                    c.get("/x");
                }
                browser.open(fleet.baseUri() + "/dashboard");
                Object state = browser.await("document.querySelector('#endpoints tr[data-endpoint=\"" + dead
                        + "\"] td[data-field=state]')?.textContent", Duration.ofSeconds(10));
                assertEquals("ejected", state);
                String live = a.url().substring("http://".length());
                assertEquals("up", browser.eval("document.querySelector('#endpoints tr[data-endpoint=\"" + live
                        + "\"] td[data-field=state]').textContent"));
                assertTrue(Integer.parseInt((String) browser.eval("document.querySelector('#endpoints tr[data-endpoint=\"" + live
                        + "\"] td[data-field=calls]').textContent")) >= 2);
                assertTrue(browser.errors().isEmpty(), "the page logged errors: " + browser.errors());
            }
        }
    }
}
