package io.loomgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.LogCapture;
import io.loomgate.testing.TestClient;
import io.loomgate.testing.TestTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the operator pages are: with a route file that checks who calls, never on the public port;
 * with {@code --admin-port}, only there, on loopback unless {@code --admin-host} says otherwise; the
 * probes wherever a load balancer needs them.
 */
class OperatorPagesTest {

    private static final List<String> PAGES = List.of("/metrics", "/dashboard", "/debug/requests", "/");
    private static final List<String> PROBES = List.of("/health", "/livez", "/readyz");

    @TempDir
    Path dir;

    private FileGate gate(ApiUpstream api, String... flags) throws Exception {
        Files.writeString(dir.resolve("keys.txt"), "ops " + TestTokens.sha256("k") + "\n");
        List<String> all = new java.util.ArrayList<>(List.of("--api-keys", dir.resolve("keys.txt").toString()));
        all.addAll(List.of(flags));
        return FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/data\"}",
                List.of("{\"path\": \"/data\", \"policy\": \"single\", \"upstreams\": [\"api\"], \"auth\": \"apiKey\"}"),
                all.toArray(String[]::new));
    }

    @Test
    void aRouteFileThatAuthenticatesKeepsThePagesOffThePublicPortAndSaysSoAtStart() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/data", "{}");
             LogCapture log = LogCapture.of("loomgate");
             FileGate g = gate(api)) {
            for (String page : PAGES) {
                assertEquals(404, g.client().get(page).statusCode(), page + " is not public");
            }
            for (String probe : PROBES) {
                assertEquals(200, g.client().get(probe).statusCode(), probe + " stays for load balancers");
            }
            assertEquals(200, g.client().get("/data", "X-Api-Key", "k").statusCode());
            assertTrue(log.lines().stream().anyMatch(m -> m.contains("operator pages (/metrics, /dashboard,"
                    + " /debug/requests, /) are off")), log.lines().toString());
        }
    }

    @Test
    void withAnAdminPortThePagesAreOnlyThereOnLoopback() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/data", "{}");
             FileGate g = gate(api, "--admin-port", "0");
             TestClient admin = new TestClient(g.gate().adminUri(""))) {
            assertEquals("127.0.0.1", g.gate().adminUri("").getHost(), "the admin port binds loopback by default");
            for (String page : PAGES) {
                assertEquals(404, g.client().get(page).statusCode(), page + " is not on the main port");
                assertEquals(200, admin.get(page).statusCode(), page + " is on the admin port");
            }
            assertTrue(admin.get("/").body().contains("\"/data\""), "the admin port's index lists the routes");
        }
    }

    @Test
    void adminHostMovesTheAdminListener() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/data", "{}");
             FileGate g = gate(api, "--admin-port", "0", "--admin-host", "127.0.0.2");
             TestClient admin = new TestClient(g.gate().adminUri(""))) {
            assertEquals("127.0.0.2", g.gate().adminUri("").getHost());
            assertEquals(200, admin.get("/metrics").statusCode());
        }
    }
}
