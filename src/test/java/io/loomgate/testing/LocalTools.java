package io.loomgate.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/** What the process tests need from this machine: an outside program, a free port, a scratch tree removed. */
public final class LocalTools {

    private LocalTools() {
    }

    /** The program {@code name} on the PATH, or in the sbin directories Debian puts servers in. */
    public static Optional<Path> installed(String name) {
        return Stream.concat(Stream.of(System.getenv("PATH").split(":")), Stream.of("/usr/sbin", "/usr/local/sbin"))
                .map(d -> Path.of(d, name)).filter(Files::isExecutable).findFirst();
    }

    /** A TCP port on 127.0.0.1 that was free a moment ago, for programs that cannot take port 0. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
