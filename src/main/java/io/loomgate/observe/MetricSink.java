package io.loomgate.observe;

import io.loomgate.observe.histogram.HistogramSnapshot;

/** Where a {@link MetricSet} writes its families: the Prometheus form, or a test's recorder. */
public interface MetricSink {

    /** A family's {@code HELP} and {@code TYPE} ({@code counter}, {@code gauge} or {@code histogram}), before its samples. */
    void family(String name, String type, String help);

    /** One sample; {@code labels} are names and values in turn. */
    void sample(String name, double value, String... labels);

    /** A histogram's buckets, sum and count; {@code labels} are names and values in turn. */
    void histogram(String name, HistogramSnapshot h, String... labels);
}
