package io.loomgate.observe.metrics;

import io.loomgate.observe.MetricSink;
import io.loomgate.observe.histogram.ExportedBuckets;
import io.loomgate.observe.histogram.HistogramSnapshot;
import java.math.BigDecimal;

/**
 * The Prometheus text format's lines, for {@link PrometheusFormat}: a family's HELP and TYPE, a
 * sample with its labels escaped and its number written as Prometheus reads it, and a histogram's
 * cumulative buckets, {@code _sum} and {@code _count}.
 */
final class PrometheusWriter implements MetricSink {

    private final StringBuilder out = new StringBuilder(16 * 1024);

    void histogram(String name, String label, String value, HistogramSnapshot h) {
        histogram(name, new String[] {label, value}, h);
    }

    /** A histogram's samples; {@code labels} are names and values in turn. */
    void histogram(String name, String[] labels, HistogramSnapshot h) {
        long[] cumulative = h.cumulativeExported();
        String[] withLe = java.util.Arrays.copyOf(labels, labels.length + 2);
        withLe[labels.length] = "le";
        for (int i = 0; i < cumulative.length; i++) {
            withLe[labels.length + 1] = ExportedBuckets.LABELS[i];
            labelled(name + "_bucket", withLe, cumulative[i]);
        }
        long count = cumulative[cumulative.length - 1] + h.exported()[cumulative.length];
        withLe[labels.length + 1] = "+Inf";
        labelled(name + "_bucket", withLe, count);
        labelled(name + "_sum", labels, h.sumNanos() / 1e9);
        labelled(name + "_count", labels, count);
    }

    void labelled(String name, String[] labels, double value) {
        out.append(name).append('{');
        for (int i = 0; i < labels.length; i += 2) {
            if (i > 0) {
                out.append(',');
            }
            label(labels[i], labels[i + 1]);
        }
        out.append("} ");
        number(value);
    }

    void gauge(String name, String help, double value) {
        family(name, "gauge", help);
        sample(name, value);
    }

    @Override
    public void family(String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    @Override
    public void sample(String name, double value, String... labels) {
        if (labels.length == 0) {
            sample(name, value);
        } else {
            labelled(name, labels, value);
        }
    }

    @Override
    public void histogram(String name, HistogramSnapshot h, String... labels) {
        histogram(name, labels, h);
    }

    void sample(String name, double value) {
        out.append(name).append(' ');
        number(value);
    }

    void sample(String name, String label, String labelValue, double value) {
        out.append(name).append('{');
        label(label, labelValue);
        out.append("} ");
        number(value);
    }

    void sample(String name, String l1, String v1, String l2, String v2, double value) {
        out.append(name).append('{');
        label(l1, v1);
        out.append(',');
        label(l2, v2);
        out.append("} ");
        number(value);
    }

    void label(String name, String value) {
        out.append(name).append("=\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
        out.append('"');
    }

    void number(double v) {
        if (Double.isNaN(v)) {
            out.append("NaN");
        } else if (Double.isInfinite(v)) {
            out.append(v > 0 ? "+Inf" : "-Inf");
        } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            out.append((long) v);
        } else {
            out.append(BigDecimal.valueOf(v).toPlainString());
        }
        out.append('\n');
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
