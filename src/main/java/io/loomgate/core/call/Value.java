package io.loomgate.core.call;

import io.loomgate.json.JsonParser;
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

    /**
     * This value as a JSON tree (a String, Number, Boolean, Map, List or null), for a composed
     * route's placeholders to look into. By default written and read back; a value that already
     * holds its tree returns it.
     */
    default Object tree() {
        JsonWriter w = new JsonWriter(64);
        writeTo(w);
        return JsonParser.parse(w.toString());
    }

    /**
     * About how many bytes this value holds, for a request that bounds what it keeps (a composed
     * route's {@code maxBytes}); 0 for a value too small to count.
     */
    default long size() {
        return 0;
    }

    /** A JSON string value. */
    static Value text(String text) {
        return new Text(text);
    }

    /** A value that came with an HTTP status (from an HTTP upstream), which a route may pass through. */
    interface WithStatus extends Value {
        int status();
    }

    /** A forwarded answer, as the call log and the metrics hold it: its status, not its body. */
    record Answered(int status) implements WithStatus {
        @Override
        public void writeTo(JsonWriter json) {
            json.value(status);
        }
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

        @Override
        public Object tree() {
            return text;
        }

        @Override
        public long size() {
            return text.length();
        }
    }
}
