package io.loomgate.testing;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A loomgate serving a route file the test writes, with a client: the set-up of every test that
 * declares its own upstreams and routes.
 *
 * <pre>{@code
 * try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "\"}",
 *         List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"api\"]}"))) {
 *     g.client().get("/x");
 * }
 * }</pre>
 */
public final class FileGate implements AutoCloseable {

    private final Loomgate gate;
    private final TestClient client;

    private FileGate(Loomgate gate) {
        this.gate = gate;
        this.client = new TestClient(gate.baseUri());
    }

    /**
     * @param upstreams the upstreams' JSON objects, comma-separated (the inside of the array)
     * @param routes    each route's JSON object
     * @param flags     more command-line flags
     */
    public static FileGate start(Path dir, String upstreams, List<String> routes, String... flags) throws Exception {
        Path file = dir.resolve("routes.json");
        Files.writeString(file, "{\"upstreams\": [" + upstreams + "], \"routes\": [" + String.join(",", routes) + "]}");
        List<String> args = new ArrayList<>(List.of("--port", "0", "--routes", file.toString()));
        args.addAll(List.of(flags));
        return new FileGate(Loomgate.start(CommandLine.config(args.toArray(String[]::new))));
    }

    /** One started on a route file of its own, on port 0. */
    public static FileGate startFile(Path file, String... flags) throws Exception {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--routes", file.toString()));
        args.addAll(List.of(flags));
        return new FileGate(Loomgate.start(CommandLine.config(args.toArray(String[]::new))));
    }

    public Loomgate gate() {
        return gate;
    }

    public TestClient client() {
        return client;
    }

    @Override
    public void close() {
        client.close();
        gate.close();
    }
}
