package io.loomgate.observe.metrics;

import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.Outcome;
import io.loomgate.observe.histogram.HistogramSnapshot;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What {@code curl /metrics} shows: the classic fields first, then a table per route, a table per
 * service, the virtual-thread scheduler, and the platform pool in platform mode.
 */
final class TextFormat {

    private TextFormat() {
    }

    static String render(MetricsSnapshot s) {
        StringBuilder out = new StringBuilder(4 * 1024);
        JvmSnapshot j = s.jvm();
        out.append("loomgate ").append(s.version()).append(" metrics\n");
        out.append("=====================================\n");
        line(out, "Active Requests", String.valueOf(s.inFlight()));
        line(out, "Total Requests", String.valueOf(s.requests()));
        line(out, "Average Response Time", String.format("%.2fms", s.averageResponseMs()));
        line(out, "CPU Usage", j.processCpuLoad() < 0 ? "unknown" : String.format("%.2f%%", j.processCpuLoad() * 100));
        line(out, "Memory Usage", String.format("%.2fMB / %.2fMB", j.heapUsedBytes() / 1048576.0,
                j.heapCommittedBytes() / 1048576.0));
        line(out, "JVM Uptime", j.uptimeMs() / 1000 + " seconds");
        line(out, "Thread Type", s.threads() == ThreadMode.VIRTUAL ? "Virtual Threads"
                : "Platform Threads (pool " + s.pool().size() + ")");
        line(out, "Shed Requests", s.shed() + (s.maxInflight() > 0 ? " (limit " + s.maxInflight() + " in flight)" : " (no limit)"));

        out.append("\nRoutes (latency in ms, from first byte read to end of response)\n");
        out.append(String.format("%-26s %9s %8s %9s %9s %9s %9s  %s%n",
                "route", "requests", "inflight", "p50", "p90", "p99", "max", "statuses"));
        s.routes().forEach((route, r) -> out.append(String.format("%-26s %9d %8d %9.1f %9.1f %9.1f %9.1f  %s%n",
                route, r.requests(), r.inFlight(), ms(r.latency(), 0.5), ms(r.latency(), 0.9), ms(r.latency(), 0.99),
                r.latency().maxNanos() / 1e6, statuses(r.statuses()) + (r.cutOff() > 0 ? "; cut off " + r.cutOff() : ""))));

        out.append("\nServices (calls by outcome; latency in ms)\n");
        out.append(String.format("%-11s %8s %7s %9s %8s %8s %8s %8s %9s %9s %11s%n", "service", "success", "failed",
                "cancelled", "timeout", "fallback", "orphaned", "inflight", "p50", "p99", "orphanedMs"));
        s.services().forEach((name, v) -> {
            Map<Outcome.Kind, Long> c = v.calls();
            out.append(String.format("%-11s %8d %7d %9d %8d %8d %8d %8d %9.1f %9.1f %11.1f%n", name.value(),
                    c.get(Outcome.Kind.SUCCESS), c.get(Outcome.Kind.FAILED), c.get(Outcome.Kind.CANCELLED),
                    c.get(Outcome.Kind.TIMEOUT), c.get(Outcome.Kind.FALLBACK), c.get(Outcome.Kind.ORPHANED),
                    v.inFlight(), ms(v.latency(), 0.5), ms(v.latency(), 0.99), v.orphanedNanos() / 1e6));
        });

        s.components().forEach(c -> c.text(out));

        VirtualThreads.Snapshot v = s.virtualThreads();
        out.append("\nVirtual threads\n");
        line(out, "Started", String.valueOf(v.started()));
        line(out, "Scheduler", "parallelism " + v.parallelism() + ", carriers " + v.poolSize()
                + ", mounted " + v.mounted() + ", queued " + v.queued());
        line(out, "Pinned Events", v.pinnedEvents() < 0 ? "unknown (JFR unavailable)"
                : v.pinnedEvents() + " (pins of " + PinningMonitor.THRESHOLD.toMillis() + " ms or more)");
        for (PinningMonitor.Pin p : v.recentPins()) {
            out.append(String.format("  pinned %.1f ms on %s at %s%n", p.duration().toNanos() / 1e6, p.thread(), p.at()));
            p.topFrames().forEach(f -> out.append("      at ").append(f).append('\n'));
        }
        out.append("Platform threads: ").append(j.platformThreads()).append('\n');

        if (s.pool() != null) {
            out.append("\nPlatform request pool\n");
            line(out, "Threads", String.valueOf(s.pool().size()));
            line(out, "Active", String.valueOf(s.pool().active()));
            line(out, "Queued Requests", String.valueOf(s.pool().queued()));
        }
        return out.toString();
    }

    private static void line(StringBuilder out, String name, String value) {
        out.append(name).append(": ").append(value).append('\n');
    }

    private static double ms(HistogramSnapshot h, double q) {
        return h.percentileNanos(q) / 1e6;
    }

    private static String statuses(Map<Integer, Long> statuses) {
        return statuses.isEmpty() ? "-" : statuses.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }
}
