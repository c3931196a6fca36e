package io.loomgate.api;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.edge.routing.Handler;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code GET /debug/threads} (only with {@code --debug-endpoints}): a JSON thread dump from
 * {@link HotSpotDiagnosticMXBean#dumpThreads}. Unlike a classic dump, it shows the thread
 * containers: each in-flight request's {@code StructuredTaskScope}, named after its endpoint and
 * request, with its forked subtasks, named after their services. That tree is the picture of
 * structured concurrency JEP 505 promises.
 */
final class DebugThreadsEndpoint implements Handler {

    @Override
    public Response handle(Request request) throws IOException {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        Path dir = Files.createTempDirectory("loomgate-threads-");
        Path file = dir.resolve("threads.json");
        try {
            hotspot.dumpThreads(file.toAbsolutePath().toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            return new Response(200, Response.JSON, Files.readAllBytes(file), Headers.EMPTY);
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }
}
