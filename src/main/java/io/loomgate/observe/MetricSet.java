package io.loomgate.observe;

import io.loomgate.json.JsonWriter;

/**
 * A component's own metrics, written by the component (Micrometer's {@code MeterBinder} is the model):
 * {@code /metrics} walks every set it is given, in each of its forms, so a component with metrics of
 * its own (an upstream's endpoints, its cache, the Redis client) touches nothing in
 * {@code observe/metrics}. A set is a snapshot: read once, then written in whichever form was asked.
 */
public interface MetricSet {

    /** A set with nothing in it: a component that has nothing to show here (the JDK's server's connections). */
    MetricSet NONE = sink -> {
    };

    /** Its Prometheus families. */
    void prometheus(MetricSink sink);

    /** Its fields in the JSON form's {@code server} object; none by default. */
    default void serverJson(JsonWriter w) {
    }

    /** Its fields at the JSON form's top level; none by default. */
    default void topJson(JsonWriter w) {
    }

    /** Its lines in the plain text form, after the services' table; none by default. */
    default void text(StringBuilder out) {
    }
}
