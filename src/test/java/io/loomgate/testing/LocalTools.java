package io.loomgate.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/** What the process tests need from this machine: an outside program (nginx's configuration too), a free port, a scratch tree removed. */
public final class LocalTools {

    private LocalTools() {
    }

    /**
     * Writes {@code dir/nginx.conf} for an nginx a test starts with {@code -p dir}: one worker, its pid,
     * error log and temporary files in {@code dir}, no access log, and {@code http}'s directives (its
     * {@code server} blocks, say) inside the {@code http} block. Returns the file.
     */
    public static Path nginxConfig(Path dir, String http) throws IOException {
        return Files.writeString(dir.resolve("nginx.conf"), """
                worker_processes 1; pid %1$s/nginx.pid; error_log %1$s/error.log warn;
                events {}
                http { access_log off; client_body_temp_path %1$s; proxy_temp_path %1$s; fastcgi_temp_path %1$s;
                  uwsgi_temp_path %1$s; scgi_temp_path %1$s;
                  %2$s }
                """.formatted(dir, http));
    }

    /** The program {@code name} on the PATH, or in the sbin directories Debian puts servers in. */
    public static Optional<Path> installed(String name) {
        return Stream.concat(Stream.of(System.getenv("PATH").split(":")), Stream.of("/usr/sbin", "/usr/local/sbin"))
                .map(d -> Path.of(d, name)).filter(Files::isExecutable).findFirst();
    }

    /**
     * A TCP port on 127.0.0.1 that was free a moment ago, for programs that cannot take port 0.
     * It is drawn below the kernel's ephemeral range: a port the kernel hands out for port 0 or for
     * an outgoing connection (wrk's, HAProxy's) could be taken again by such a connection before the
     * program binds it, and the program would exit with "Address already in use".
     */
    public static int freePort() {
        int below = ephemeralRangeStart();
        for (int attempt = 0; attempt < 200 && below > 20_000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20_000, below);
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
                return port;
            } catch (IOException taken) {
                // another test's server: try another
            }
        }
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int ephemeralRangeStart() {
        try {
            return Integer.parseInt(Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException notLinux) {
            return 0;
        }
    }

    /** Deletes {@code dir} and everything under it; what is already gone is fine. */
    public static void deleteTree(Path dir) {
        // A program that is still exiting may add or remove files meanwhile: walk again until the tree is gone.
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException | UncheckedIOException vanishedMeanwhile) {
                // walk again
            }
            if (Files.exists(dir) && System.nanoTime() - deadline > 0) {
                throw new UncheckedIOException(new IOException("could not delete " + dir + " within 10 s"));
            }
        }
    }
}
