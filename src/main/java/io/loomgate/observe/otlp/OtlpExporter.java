package io.loomgate.observe.otlp;

import io.loomgate.trace.Span;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code --otlp-endpoint}: sends finished spans to an OpenTelemetry collector or a trace backend
 * (Jaeger, Tempo...) with OTLP over HTTP, JSON encoded, to {@code ENDPOINT/v1/traces}. A request
 * only offers its spans to a bounded queue ({@value #CAPACITY}); one thread sends them in batches
 * of up to {@value #BATCH}, at least every second. A full queue, or a batch the backend refused or
 * never took, is dropped and counted, never waited for: tracing never slows a request.
 */
public final class OtlpExporter implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("loomgate");
    static final int CAPACITY = 8192;
    static final int BATCH = 512;

    private final URI traces;
    private final String version;
    private final HttpClient http;
    private final ArrayBlockingQueue<Span> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final LongAdder exported = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final Thread sender;
    private volatile boolean closing;
    private long lastWarning;

    /** @param endpoint the collector's OTLP/HTTP base ({@code http://127.0.0.1:4318}) */
    public OtlpExporter(URI endpoint, String version) {
        String base = endpoint.toString();
        this.traces = URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/traces");
        this.version = version;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        this.sender = Thread.ofPlatform().daemon().name("loomgate-otlp").start(this::run);
    }

    /** Queues {@code span}; drops it (counted) when the queue is full. */
    public void accept(Span span) {
        if (!queue.offer(span)) {
            dropped.increment();
        }
    }

    public long exported() {
        return exported.sum();
    }

    public long dropped() {
        return dropped.sum();
    }

    private void run() {
        List<Span> batch = new ArrayList<>(BATCH);
        while (!closing || !queue.isEmpty()) {
            try {
                Span first = queue.poll(1, TimeUnit.SECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                long until = System.nanoTime() + Duration.ofMillis(200).toNanos();
                while (batch.size() < BATCH) {
                    Span next = queue.poll(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
                    if (next == null) {
                        break;
                    }
                    batch.add(next);
                }
                send(batch);
            } catch (InterruptedException e) {
                return;
            } finally {
                batch.clear();
            }
        }
    }

    private void send(List<Span> batch) throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(traces).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(OtlpJson.request("loomgate", version, batch))).build();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 == 2) {
                exported.add(batch.size());
                return;
            }
            warn(batch.size() + " spans refused by " + traces + ": HTTP " + r.statusCode());
        } catch (IOException e) {
            warn(batch.size() + " spans not sent to " + traces + ": " + e.getMessage());
        }
        dropped.add(batch.size());
    }

    /** At most one warning a minute: a backend that is down must not flood the log. */
    private void warn(String what) {
        long now = System.nanoTime();
        if (lastWarning == 0 || now - lastWarning > Duration.ofMinutes(1).toNanos()) {
            lastWarning = now;
            LOG.log(Level.WARNING, "tracing: " + what + " (dropped and counted in loomgate_trace_spans_dropped_total)");
        }
    }

    /** Sends what is queued (for at most 5 s), then stops. */
    @Override
    public void close() {
        closing = true;
        try {
            sender.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sender.interrupt();
        http.close();
    }
}
