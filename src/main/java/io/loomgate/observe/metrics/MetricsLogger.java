package io.loomgate.observe.metrics;

import io.loomgate.observe.histogram.HistogramSnapshot;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code --metrics-log}: one {@code [metrics]} line at a fixed interval, with requests in flight,
 * requests per second and p99 since the previous line, CPU, heap and pins. Its scheduler lives until
 * shutdown.
 *
 * <pre>{@code
 * [metrics] inFlight=12 rps=3315.2 p99=305.1ms cpu=61.0% heap=84MB/512MB pinned=0
 * }</pre>
 */
public final class MetricsLogger implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("loomgate.metrics");

    private final MetricsSource source;
    private final ScheduledExecutorService timer;
    private HistogramSnapshot previous = HistogramSnapshot.empty();
    private long previousAt = System.nanoTime();

    private MetricsLogger(MetricsSource source) {
        this.source = source;
        this.timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("loomgate-metrics-log").daemon(true).factory());
    }

    /** Starts printing every {@code interval}. */
    public static MetricsLogger start(MetricsSource source, Duration interval) {
        MetricsLogger logger = new MetricsLogger(source);
        long ms = interval.toMillis();
        logger.timer.scheduleAtFixedRate(logger::logLine, ms, ms, TimeUnit.MILLISECONDS);
        return logger;
    }

    private void logLine() {
        try {
            LOG.log(Level.INFO, line());
        } catch (RuntimeException e) {
            // One bad read must not stop the schedule: a thrown exception would cancel it for good.
            LOG.log(Level.WARNING, "[metrics] could not read the metrics", e);
        }
    }

    /** The next line; each call covers the time since the one before. */
    String line() {
        MetricsSnapshot s = source.snapshot();
        long now = System.nanoTime();
        HistogramSnapshot all = s.allLatencies();
        HistogramSnapshot interval = all.minus(previous);
        double seconds = (now - previousAt) / 1e9;
        previous = all;
        previousAt = now;
        JvmSnapshot j = s.jvm();
        return String.format("[metrics] inFlight=%d rps=%.1f p99=%.1fms cpu=%s heap=%dMB/%dMB pinned=%d",
                s.inFlight(), interval.count() / seconds, interval.percentileNanos(0.99) / 1e6,
                j.processCpuLoad() < 0 ? "?" : String.format("%.1f%%", j.processCpuLoad() * 100),
                j.heapUsedBytes() >> 20, j.heapMaxBytes() >> 20, s.virtualThreads().pinnedEvents());
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
