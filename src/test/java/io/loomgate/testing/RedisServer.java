package io.loomgate.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A real {@code redis-server} (Debian's package) on a free port of 127.0.0.1, with nothing saved to
 * disk and {@code DEBUG} allowed from loopback (for {@code DEBUG SLEEP}); stopped and started again
 * on the same port as a test needs, and killed on close. A test that needs it and cannot find it
 * fails with the command that installs it ({@code scripts/test} installs it where it may).
 */
public final class RedisServer implements AutoCloseable {

    public static final String INSTALL = "sudo apt-get install redis-server";

    private final Path server;
    private final Path cli;
    private final int port;
    private final List<String> extra;
    private final Path dir;
    private final TestCertificates.Issued tls;
    private ChildProcess process;

    private RedisServer(Path server, Path cli, int port, List<String> extra, Path dir, TestCertificates.Issued tls) {
        this.server = server;
        this.cli = cli;
        this.port = port;
        this.extra = extra;
        this.dir = dir;
        this.tls = tls;
    }

    /** Starts one, with {@code extra} arguments for redis-server ({@code --requirepass x}); {@code dir} is its working directory. */
    public static RedisServer start(Path dir, String... extra) {
        return start(dir, null, extra);
    }

    /** One that speaks only TLS on its port, with {@code cert}; clients show no certificate. */
    public static RedisServer startTls(Path dir, TestCertificates.Issued cert) {
        return start(dir, cert);
    }

    private static RedisServer start(Path dir, TestCertificates.Issued tls, String... extra) {
        Path server = LocalTools.installed("redis-server").orElse(null);
        Path cli = LocalTools.installed("redis-cli").orElse(null);
        if (server == null || cli == null) {
            fail("redis-server is not installed, and these tests need a real one (install it: " + INSTALL + ")");
        }
        RedisServer r = new RedisServer(server, cli, LocalTools.freePort(), List.of(extra), dir, tls);
        r.begin();
        return r;
    }

    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:PORT}, or {@code rediss://localhost:PORT} (the name its certificate has). */
    public String url() {
        return tls != null ? "rediss://localhost:" + port : "redis://127.0.0.1:" + port;
    }

    /** Starts it (again) on its port, and waits until it answers. */
    public void begin() {
        List<String> cmd = new ArrayList<>(List.of(server.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--enable-debug-command", "local", "--daemonize", "no",
                "--dir", dir.toString(), "--logfile", ""));
        if (tls != null) {
            cmd.addAll(List.of("--port", "0", "--tls-port", Integer.toString(port), "--tls-cert-file", tls.chainPem().toString(),
                    "--tls-key-file", tls.keyPem().toString(), "--tls-ca-cert-file", tls.caPem().toString(), "--tls-auth-clients", "no"));
        }
        cmd.addAll(extra);
        process = ChildProcess.start(cmd, Map.of(), dir);
        Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> !process.isAlive() || cli("PING").contains("PONG") || cli("PING").contains("NOAUTH"));
        if (!process.isAlive()) {
            fail("redis-server exited: " + process.stdout() + process.stderr());
        }
    }

    /** Kills it at once (SIGKILL): connections reset, what it held is gone. */
    public void kill() throws InterruptedException {
        process.close();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !process.isAlive());
    }

    /** Runs redis-cli against it ({@code "DEBUG", "SLEEP", "2"}); its output, or the error. */
    public String cli(String... args) {
        List<String> cmd = new ArrayList<>(List.of(cli.toString(), "-h", "127.0.0.1", "-p", Integer.toString(port)));
        for (int i = 0; i < extra.size() - 1; i++) {
            if (extra.get(i).equals("--requirepass")) {
                cmd.addAll(List.of("--no-auth-warning", "-a", extra.get(i + 1)));
            }
        }
        if (tls != null) {
            cmd.addAll(List.of("--tls", "--cacert", tls.caPem().toString()));
        }
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            p.waitFor(10, TimeUnit.SECONDS);
            return new String(out, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "redis-cli failed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    @Override
    public void close() {
        if (process != null) {
            process.close();
        }
    }
}
