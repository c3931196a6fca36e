package io.loomgate.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A real go-httpbin ({@code github.com/mccutchen/go-httpbin/v2}), an upstream nobody here wrote, on a
 * free port of 127.0.0.1; killed on close. {@code scripts/test} builds it once with Go and says where
 * ({@code LOOMGATE_GO_HTTPBIN}); a test that cannot find it fails with the command that builds it.
 */
public final class GoHttpbin implements AutoCloseable {

    public static final String BUILD = "go install github.com/mccutchen/go-httpbin/v2/cmd/go-httpbin@v2.26.0"
            + " (and put it on the PATH, or set LOOMGATE_GO_HTTPBIN; scripts/test does this)";

    private final ChildProcess process;
    private final int port;

    private GoHttpbin(ChildProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts one, with a body limit of {@code maxBodyBytes}, and waits until it accepts connections. */
    public static GoHttpbin start(long maxBodyBytes) throws InterruptedException {
        String set = System.getenv("LOOMGATE_GO_HTTPBIN");
        Path binary = set != null && Files.isExecutable(Path.of(set)) ? Path.of(set) : LocalTools.installed("go-httpbin").orElse(null);
        if (binary == null) {
            fail("go-httpbin is not built, and these tests need it (build it: " + BUILD + ")");
        }
        int port = LocalTools.freePort();
        ChildProcess p = ChildProcess.start(List.of(binary.toString(), "-host", "127.0.0.1", "-port", String.valueOf(port),
                "-max-body-size", String.valueOf(maxBodyBytes), "-log-level", "WARN"), Map.of(), Path.of("."));
        for (int i = 0; i < 300; i++) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                return new GoHttpbin(p, port);
            } catch (java.io.IOException notYet) {
                if (!p.isAlive()) {
                    p.close();
                    fail("go-httpbin exited: " + p.stderr());
                }
                Thread.sleep(Duration.ofMillis(50));
            }
        }
        p.close();
        throw new AssertionError("go-httpbin did not listen on " + port + " within 15 s: " + p.stderr());
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        process.close();
    }
}
