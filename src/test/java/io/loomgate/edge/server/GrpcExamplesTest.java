package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.LocalTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gRPC through proxy routes, with grpc-go's own example programs (written elsewhere, built by
 * {@code scripts/test}): helloworld's unary call, and route_guide's four kinds (unary, server
 * streaming, client streaming, bidirectional), the client speaking h2c to loomgate and loomgate h2c
 * to the server; then with the server gone, the client gets UNAVAILABLE from the gateway. And
 * route_guide's client over TLS to loomgate (h2 by ALPN, its {@code -tls} flag), h2c behind; and
 * features/cancellation's client cancelling a bidirectional stream, which its server, behind
 * loomgate, sees cancelled.
 */
class GrpcExamplesTest {

    static final String BUILD = "scripts/test builds them into ~/.cache/loomgate/grpc-examples-*; or set LOOMGATE_GRPC_EXAMPLES"
            + " to a directory holding helloworld-greeter_server, helloworld-greeter_client, route_guide-server, route_guide-client,"
            + " features-cancellation-server and features-cancellation-client"
            + " (go build google.golang.org/grpc/examples/...)";

    private static Path program(String name) {
        String dir = System.getenv("LOOMGATE_GRPC_EXAMPLES");
        Path p = dir == null ? null : Path.of(dir, name);
        if (p == null || !Files.isExecutable(p)) {
            fail("grpc-go's example " + name + " is not built, and this test needs it (" + BUILD + ")");
        }
        return p;
    }

    /** Runs a client to its end; its output (it logs to stderr) and its exit code. */
    private static String run(String name, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(program(name).toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), name + " did not end: " + out);
        return out + "\nexit " + p.exitValue();
    }

    private static Process server(String name, int port) throws IOException {
        return new ProcessBuilder(program(name).toString(), "-port", String.valueOf(port))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static void awaitListening(int port) throws InterruptedException {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() -> {
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        });
    }

    @Test
    void everyKindOfCallPassesThroughAProxyRouteAndAGoneServerIsUnavailable(@TempDir Path dir) throws Exception {
        int greeterPort = LocalTools.freePort();
        int guidePort = LocalTools.freePort();
        Process greeter = server("helloworld-greeter_server", greeterPort);
        Process guide = server("route_guide-server", guidePort);
        try {
            awaitListening(greeterPort);
            awaitListening(guidePort);
            Path routes = dir.resolve("routes.json");
            Files.writeString(routes, """
                    {"upstreams": [
                       {"id": "greeter", "kind": "http", "url": "http://127.0.0.1:%d/helloworld.Greeter/", "protocol": "h2c"},
                       {"id": "guide", "kind": "http", "url": "http://127.0.0.1:%d/routeguide.RouteGuide/", "protocol": "h2c"}],
                     "routes": [
                       {"path": "/helloworld.Greeter/*", "policy": "proxy", "upstreams": ["greeter"]},
                       {"path": "/routeguide.RouteGuide/*", "policy": "proxy", "upstreams": ["guide"]}]}"""
                    .formatted(greeterPort, guidePort));
            try (Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--routes", routes.toString()))) {
                String address = "127.0.0.1:" + gate.baseUri().getPort();

                String hello = run("helloworld-greeter_client", "-addr", address, "-name", "loomgate");
                assertTrue(hello.contains("Greeting: Hello loomgate") && hello.endsWith("exit 0"), hello);

                String tour = run("route_guide-client", "-addr", address);
                assertTrue(tour.endsWith("exit 0"), tour);
                assertTrue(tour.contains("Berkshire Valley Management Area Trail"), "unary GetFeature: " + tour);
                assertTrue(tour.contains("Looking for features within"), "server-streaming ListFeatures: " + tour);
                assertTrue(tour.contains("Route summary: point_count:"), "client-streaming RecordRoute: " + tour);
                // RouteChat sends six notes at three points; for each, the server sends back every note at its point so far
                // (itself included), in the order the one stream carries them: 1 + 1 + 1 + 2 + 2 + 2
                assertEquals(9, tour.lines().filter(l -> l.contains("Got message")).count(), "bidirectional RouteChat: " + tour);

                greeter.destroy();
                assertTrue(greeter.waitFor(30, TimeUnit.SECONDS));
                String gone = run("helloworld-greeter_client", "-addr", address, "-name", "again");
                assertTrue(gone.contains("code = Unavailable"), "the gateway's own error, as gRPC's status: " + gone);
            }
        } finally {
            greeter.destroyForcibly();
            guide.destroyForcibly();
        }
    }

    @Test
    void routeGuideOverTlsToTheGateway(@TempDir Path dir) throws Exception {
        int guidePort = LocalTools.freePort();
        Process guide = server("route_guide-server", guidePort);
        io.loomgate.testing.TestCertificates ca = io.loomgate.testing.TestCertificates.ca();
        // route_guide's client checks the name x.test.example.com unless told another (-server_host_override)
        io.loomgate.testing.TestCertificates.Issued cert = ca.issue("grpc-gateway", "dns:x.test.example.com,ip:127.0.0.1");
        try {
            awaitListening(guidePort);
            Path routes = dir.resolve("routes.json");
            Files.writeString(routes, """
                    {"upstreams": [{"id": "guide", "kind": "http", "url": "http://127.0.0.1:%d/routeguide.RouteGuide/", "protocol": "h2c"}],
                     "routes": [{"path": "/routeguide.RouteGuide/*", "policy": "proxy", "upstreams": ["guide"]}]}""".formatted(guidePort));
            try (Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--routes", routes.toString(),
                    "--tls-cert", cert.chainPem().toString(), "--tls-key", cert.keyPem().toString()))) {
                String tour = run("route_guide-client", "-addr", "127.0.0.1:" + gate.baseUri().getPort(), "-tls",
                        "-ca_file", ca.caPem().toString());
                assertTrue(tour.endsWith("exit 0"), tour);
                assertTrue(tour.contains("Berkshire Valley Management Area Trail"), "unary GetFeature over TLS: " + tour);
                assertTrue(tour.contains("Route summary: point_count:"), "client-streaming RecordRoute over TLS: " + tour);
                assertEquals(9, tour.lines().filter(l -> l.contains("Got message")).count(), "bidirectional RouteChat over TLS: " + tour);
            }
        } finally {
            guide.destroyForcibly();
        }
    }

    /**
     * The client cancels its stream after two echoes; loomgate resets its own stream to the server
     * ({@code RST_STREAM CANCEL}), and the server's {@code Recv} ends with {@code Canceled}, which it
     * prints: the cancellation crossed the gateway, seen where it lands.
     */
    @Test
    void aStreamTheClientCancelsIsCancelledAtTheServer(@TempDir Path dir) throws Exception {
        int port = LocalTools.freePort();
        Path serverOut = dir.resolve("server.out");
        Process echo = new ProcessBuilder(program("features-cancellation-server").toString(), "-port", String.valueOf(port))
                .redirectErrorStream(true).redirectOutput(serverOut.toFile()).start();
        try {
            awaitListening(port);
            Path routes = dir.resolve("routes.json");
            Files.writeString(routes, """
                    {"upstreams": [{"id": "echo", "kind": "http", "url": "http://127.0.0.1:%d/grpc.examples.echo.Echo/", "protocol": "h2c"}],
                     "routes": [{"path": "/grpc.examples.echo.Echo/*", "policy": "proxy", "upstreams": ["echo"]}]}""".formatted(port));
            try (Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--routes", routes.toString()))) {
                String out = run("features-cancellation-client", "-addr", "127.0.0.1:" + gate.baseUri().getPort());
                assertTrue(out.endsWith("exit 0"), out);
                assertEquals(2, out.lines().filter(l -> l.startsWith("received message")).count(), "two echoes before the cancel: " + out);
                assertTrue(out.contains("returned expected error rpc error: code = Canceled"), out);
                org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                        .until(() -> Files.readString(serverOut).contains("server: error receiving from stream: rpc error: code = Canceled"));
            }
        } finally {
            echo.destroyForcibly();
        }
    }
}
