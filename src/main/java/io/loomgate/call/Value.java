package io.loomgate.call;

import io.loomgate.json.JsonWriter;
import java.util.Objects;

/**
 * What one upstream call returns, ready to be written into a response as one JSON value. Upstreams
 * bring their own kinds of value; {@link #text(String)} is the common one.
 */
@FunctionalInterface
public interface Value {

    /** Writes this value as exactly one JSON value. */
    void writeTo(JsonWriter json);

    /** A JSON string value. */
    static Value text(String text) {
        return new Text(text);
    }

    /** A value that came with an HTTP status (from an HTTP upstream), which a route may pass through. */
    interface WithStatus extends Value {
        int status();
    }

    /** A plain string, such as {@code "DB call completed"}. */
    record Text(String text) implements Value {
        public Text {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public void writeTo(JsonWriter json) {
            json.value(text);
        }
    }
}
