package io.loomgate.observe.metrics;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The three shapes of {@code /metrics}: human text, Prometheus text format 0.0.4, and JSON. */
public enum MetricsFormat {
    TEXT("text/plain; charset=utf-8"),
    PROMETHEUS("text/plain; version=0.0.4; charset=utf-8"),
    JSON("application/json");

    private final String contentType;

    MetricsFormat(String contentType) {
        this.contentType = contentType;
    }

    public String contentType() {
        return contentType;
    }

    /** {@code text}, {@code prometheus} or {@code json}, as in {@code ?format=}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<MetricsFormat> fromWire(String name) {
        return Arrays.stream(values()).filter(f -> f.wire().equals(name)).findFirst();
    }

    /** {@code text, prometheus, json}: for the 400 that lists them. */
    public static String accepted() {
        return Arrays.stream(values()).map(MetricsFormat::wire).collect(Collectors.joining(", "));
    }

    /**
     * The format an {@code Accept} header asks for: Prometheus for what a real scrape sends
     * ({@code application/openmetrics-text}, {@code text/plain;version=0.0.4}), JSON for
     * {@code application/json}, text for anything else, junk included.
     */
    public static MetricsFormat negotiate(String accept) {
        if (accept == null) {
            return TEXT;
        }
        String a = accept.toLowerCase(Locale.ROOT).replace(" ", "");
        if (a.contains("application/openmetrics-text") || a.contains("version=0.0.4")) {
            return PROMETHEUS;
        }
        if (a.contains("application/json")) {
            return JSON;
        }
        return TEXT;
    }
}
