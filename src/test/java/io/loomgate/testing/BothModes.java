package io.loomgate.testing;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.config.UsageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Two gateways with the same flags, one on virtual threads and one on a platform pool of 16, each
 * with a client, for tests that must give the same answers in both modes.
 */
public final class BothModes implements AutoCloseable {

    private final Loomgate virtual;
    private final Loomgate platform;
    private final TestClient virtualClient;
    private final TestClient platformClient;

    private BothModes(Loomgate virtual, Loomgate platform) {
        this.virtual = virtual;
        this.platform = platform;
        this.virtualClient = new TestClient(virtual.baseUri());
        this.platformClient = new TestClient(platform.baseUri());
    }

    /** The built-in routes with {@code extraFlags}; random {@code file-flaky} failures are off. */
    public static BothModes start(String... extraFlags) throws IOException, UsageException {
        List<String> flags = new ArrayList<>(List.of("--failure-rate", "file-flaky=0"));
        flags.addAll(List.of(extraFlags));
        return of(flags);
    }

    /** The routes of {@code routeFile}, and no other flag. */
    public static BothModes withRoutes(Path routeFile) throws IOException, UsageException {
        return of(List.of("--routes", routeFile.toString()));
    }

    private static BothModes of(List<String> flags) throws IOException, UsageException {
        Loomgate virtual = Loomgate.start(CommandLine.config(flags(flags)));
        Loomgate platform = Loomgate.start(CommandLine.config(flags(flags, "--threads", "platform", "--pool", "16")));
        return new BothModes(virtual, platform);
    }

    private static String[] flags(List<String> given, String... mode) {
        List<String> all = new ArrayList<>(List.of("--port", "0"));
        all.addAll(given);
        all.addAll(List.of(mode));
        return all.toArray(String[]::new);
    }

    /** The gateway of {@code mode}: {@code virtual} or {@code platform}. */
    public Loomgate gate(String mode) {
        return switch (mode) {
            case "virtual" -> virtual;
            case "platform" -> platform;
            default -> throw new IllegalArgumentException("mode must be virtual or platform: " + mode);
        };
    }

    /** A client of the gateway of {@code mode}. */
    public TestClient client(String mode) {
        return gate(mode) == virtual ? virtualClient : platformClient;
    }

    @Override
    public void close() {
        virtualClient.close();
        platformClient.close();
        virtual.close();
        platform.close();
    }
}
