package io.loomgate.client;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The same load through the JDK's {@link HttpClient} and through loomgate's {@link Http1Client}, in
 * one JVM and one run: {@code connections} virtual threads in a closed loop against {@code url},
 * each client warmed up first. Prints one JSON line per client: throughput, latency, and this
 * process's CPU per request (the client's own cost; the server runs elsewhere).
 *
 * <pre>{@code
 * java --enable-preview -cp target/test-classes:target/classes io.loomgate.upstream.http.ClientBench http://127.0.0.1:9090/api/data 1000 10
 * }</pre>
 */
public final class ClientBench {

    private interface Client extends AutoCloseable {
        int get() throws Exception;

        @Override
        void close();
    }

    public static void main(String[] args) throws Exception {
        URI uri = URI.create(args[0]);
        int connections = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        for (String name : List.of("jdk-httpclient", "loomgate-http1client")) {
            try (Client c = client(name, uri)) {
                measure(c, connections, Math.max(3, seconds / 2));
                long[] result = measure(c, connections, seconds);
                System.out.println(json(name, connections, seconds, result));
            }
        }
    }

    private static Client client(String name, URI uri) {
        if (name.equals("jdk-httpclient")) {
            ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(executor)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            // Bounded like the other client's calls: a request the JDK's client never completes would
            // otherwise hold its thread, the join below, and the load run, for ever.
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build();
            return new Client() {
                public int get() throws Exception {
                    return http.send(request, HttpResponse.BodyHandlers.ofByteArray()).statusCode();
                }

                public void close() {
                    http.shutdownNow();
                    executor.shutdownNow();
                }
            };
        }
        Http1Client http = new Http1Client(Duration.ofSeconds(5));
        OutgoingRequest request = OutgoingRequest.get(Origin.of(uri.toString()), uri.getRawPath(), io.loomgate.http.Headers.EMPTY);
        return new Client() {
            public int get() throws Exception {
                try (UpstreamResponse r = http.send(request, System.nanoTime() + 10_000_000_000L, Duration.ofSeconds(30))) {
                    r.body().readAllBytes();
                    return r.status();
                }
            }

            public void close() {
                http.close();
            }
        };
    }

    /** {requests, errors, cpu nanos, p50 nanos, p99 nanos, elapsed nanos} */
    private static long[] measure(Client c, int connections, int seconds) throws InterruptedException {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        AtomicLong errors = new AtomicLong();
        List<long[]> samples = new ArrayList<>();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        long end = t0 + Duration.ofSeconds(seconds).toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            long[] mine = new long[200_000];
            samples.add(mine);
            threads.add(Thread.ofVirtual().start(() -> {
                int n = 0;
                while (System.nanoTime() < end && n < mine.length - 1) {
                    long s = System.nanoTime();
                    try {
                        if (c.get() != 200) {
                            errors.incrementAndGet();
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                    mine[++n] = System.nanoTime() - s;
                }
                mine[0] = n;
            }));
        }
        // Each call is bounded (30 s), so each thread ends within that of the run's end; the join is
        // bounded too, and a thread still running after it is interrupted and counted as an error.
        long joinBy = end + Duration.ofSeconds(60).toNanos();
        for (Thread t : threads) {
            if (!t.join(Duration.ofNanos(Math.max(1, joinBy - System.nanoTime())))) {
                t.interrupt();
                errors.incrementAndGet();
            }
        }
        long elapsed = System.nanoTime() - t0;
        long cpu = os.getProcessCpuTime() - cpu0;
        long total = samples.stream().mapToLong(s -> s[0]).sum();
        long[] all = new long[(int) total];
        int k = 0;
        for (long[] s : samples) {
            System.arraycopy(s, 1, all, k, (int) s[0]);
            k += (int) s[0];
        }
        Arrays.sort(all);
        return new long[] {total, errors.get(), cpu, all.length == 0 ? 0 : all[all.length / 2],
                all.length == 0 ? 0 : all[(int) (all.length * 0.99)], elapsed};
    }

    private static String json(String name, int connections, int seconds, long[] r) {
        return String.format(Locale.ROOT, "{\"client\":\"%s\",\"connections\":%d,\"seconds\":%d,\"requests\":%d,"
                        + "\"errors\":%d,\"rps\":%.1f,\"p50Ms\":%.1f,\"p99Ms\":%.1f,\"cpuUsPerRequest\":%.1f}",
                name, connections, seconds, r[0], r[1], r[0] / (r[5] / 1e9), r[3] / 1e6, r[4] / 1e6,
                r[0] == 0 ? 0 : r[2] / 1e3 / r[0]);
    }
}
