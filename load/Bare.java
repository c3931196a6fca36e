import com.sun.management.UnixOperatingSystemMXBean;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * The reference ceiling for loomgate's load harness: the thinnest JDK HttpServer on virtual threads,
 * with the same server tuning loomgate applies (see "The JDK server, tuned" in docs/operations.md), and
 * nothing else: no routing, no metrics, no JSON.
 *
 *   java load/Bare.java PORT        (0 picks a free port)
 *   GET /hello                      -> 200 "hello"
 *   GET /block?ms=N                 -> sleeps N ms (0..60000), then 200 "ok"
 *
 * Prints "bare listening on http://127.0.0.1:PORT" once bound.
 */
public class Bare {

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        // The same JDK server settings loomgate sets (server/ServerTuning.java), unless given with -D.
        setIfAbsent("sun.net.httpserver.maxIdleConnections", String.valueOf(idleConnectionLimit()));
        setIfAbsent("sun.net.httpserver.maxReqTime", "10");
        setIfAbsent("sun.net.httpserver.idleInterval", "30");
        setIfAbsent("sun.net.httpserver.clockTick", "1000");
        setIfAbsent("sun.net.httpserver.nodelay", "true");
        setIfAbsent("sun.net.httpserver.maxReqHeaderSize", "65536");

        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 4096);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/hello", exchange -> reply(exchange, "hello"));
        server.createContext("/block", exchange -> {
            try {
                Thread.sleep(millis(exchange.getRequestURI().getRawQuery()));
                reply(exchange, "ok");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.close();
            }
        });
        server.start();
        System.out.println("bare listening on http://127.0.0.1:" + server.getAddress().getPort());
    }

    private static long millis(String query) {
        if (query != null && query.startsWith("ms=")) {
            try {
                return Math.max(0, Math.min(60_000, Long.parseLong(query.substring(3))));
            } catch (NumberFormatException ignored) {
                // fall through to the default
            }
        }
        return 300;
    }

    private static void reply(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (exchange; OutputStream out = exchange.getResponseBody()) {
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(200, bytes.length);
            out.write(bytes);
        }
    }

    /** loomgate's rule: as many idle connections as the process may have file descriptors, at least 10,000. */
    private static long idleConnectionLimit() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix) {
            return Math.max(10_000, Math.min(unix.getMaxFileDescriptorCount(), Integer.MAX_VALUE));
        }
        return 100_000;
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
