package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.LogCapture;
import io.loomgate.testing.TestClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catch-all proxy route ({@code "/*"}, and {@code "/"} as the same) works everywhere a route
 * file is read: {@code check}, the start, a reload and {@code --watch}; and a reload that fails,
 * for whatever reason, never stops the watcher (it once died, silently ignoring every later edit).
 */
class CatchAllRouteTest {

    @TempDir
    Path dir;

    private Path write(ApiUpstream api, String path) throws Exception {
        Path file = dir.resolve("routes.json");
        Files.writeString(file, """
                {"upstreams": [{"id": "api", "kind": "http", "url": "%s/"}],
                 "routes": [{"path": "%s", "policy": "proxy", "upstreams": ["api"]}]}""".formatted(api.url(), path));
        return file;
    }

    @Test
    void checkAcceptsACatchAll() throws Exception {
        try (ApiUpstream api = ApiUpstream.start()) {
            for (String path : List.of("/*", "/")) {
                Path file = write(api, path);
                var check = (CommandLine.Check) CommandLine.parse(List.of("check", file.toString()), Map.of());
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int status = CheckCommand.run(check.files(), check.config(), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
                assertEquals(0, status, path + ": " + err.toString(StandardCharsets.UTF_8));
                assertTrue(out.toString(StandardCharsets.UTF_8).contains("/*"), out.toString(StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void aCatchAllServesEveryPathButTheGatewaysOwn() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/", "{\"root\":true}").answer("/anything/x", "{\"x\":true}");
             Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", write(api, "/").toString()));
             TestClient client = new TestClient(gate.baseUri())) {
            assertEquals("{\"x\":true}", client.get("/anything/x?q=1").body());
            assertEquals("/anything/x?q=1", api.requests().getLast().target(), "the whole path and query, below the upstream's URL");
            assertEquals("{\"root\":true}", client.get("/").body(), "/ is the upstream's too");
            assertEquals(200, client.get("/health").statusCode());
            assertTrue(client.get("/health").body().contains("\"status\""), "/health is still loomgate's");
        }
    }

    @Test
    void aReloadAndTheWatcherTakeACatchAllAndABrokenFileNeverStopsTheWatch() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/a", "{\"a\":1}").answer("/b", "{\"b\":1}")) {
            Path file = dir.resolve("routes.json");
            Files.writeString(file, """
                    {"upstreams": [{"id": "api", "kind": "http", "url": "%s/"}],
                     "routes": [{"path": "/only/*", "policy": "proxy", "upstreams": ["api"]}]}""".formatted(api.url()));
            try (LogCapture log = LogCapture.of("loomgate");
                 Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", file.toString(), "--watch"));
                 TestClient client = new TestClient(gate.baseUri())) {
                assertEquals(404, client.get("/a").statusCode());
                write(api, "/*");
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> client.get("/a").statusCode() == 200);
                Files.writeString(file, "{\"upstreams\": [");   // broken
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> log.lines().stream().anyMatch(l -> l.contains("refused")));
                assertEquals(200, client.get("/b").statusCode(), "the last good plan serves on");
                Files.writeString(file, """
                        {"upstreams": [{"id": "api", "kind": "http", "url": "%s/"}],
                         "routes": [{"path": "/only/*", "policy": "proxy", "upstreams": ["api"]}]}""".formatted(api.url()));
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> client.get("/a").statusCode() == 404);
                assertEquals(200, client.get("/only/a").statusCode(), "the watcher kept watching and took the fixed file");
            }
        }
    }
}
