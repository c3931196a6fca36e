package io.loomgate.upstream;

import io.loomgate.core.port.Extensions;
import io.loomgate.core.port.Upstream;
import java.util.OptionalInt;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.util.List;
import java.util.Optional;

/**
 * A kind of upstream a route file may declare ({@code "kind": "http"}): a module that reads and
 * checks its own fields into typed {@link Settings} when the file is read, prints them back for
 * {@code --print-routes}, and builds the upstream when the plan is served. Registered once, in
 * {@code io.loomgate.Modules}; nothing else knows a kind by its name.
 *
 * <pre>{@code
 * Settings s = kind.read(fields);                 // a bad field stops the start, naming it
 * Upstream u = kind.create(UpstreamId.of("db"), s);
 * }</pre>
 */
public interface UpstreamKind {

    /** The {@code kind} value, e.g. {@code simulated}. */
    String name();

    /** The kind's own field names, for error messages. */
    List<String> fields();

    /**
     * Reads this kind's fields of one declaration; any field it does not read is refused afterwards.
     *
     * @throws RouteFileException naming the field and the bad value
     */
    Settings read(Fields fields) throws RouteFileException;

    /** Builds the upstream of settings this kind has read. */
    Upstream create(UpstreamId id, Settings settings);

    /** The connections it keeps idle for an upstream of these settings now (a pool); empty when it keeps none. */
    default OptionalInt idleConnections(Settings settings) {
        return OptionalInt.empty();
    }

    /**
     * What it keeps for an upstream of these settings and may share with others (a pool's key:
     * host, port and trust); empty when it keeps nothing.
     */
    default java.util.Optional<String> pool(Settings settings) {
        return java.util.Optional.empty();
    }

    /**
     * Lets go of what it keeps for an upstream of these settings (its idle pooled connections): a
     * reload calls it once a removed or changed upstream's last call has ended and no upstream of
     * the plan now serving shares its {@link #pool}.
     */
    default void release(Settings settings) {
    }

    /** Its own metrics, shared by every upstream of the kind (an HTTP client's connections); none by default. */
    default io.loomgate.observe.MetricSet metrics() {
        return io.loomgate.observe.MetricSet.NONE;
    }

    /** What one declaration of a kind says, checked. */
    interface Settings {

        /** Its fields as a route file writes them, after {@code id} and {@code kind}: {@code --print-routes} prints these. */
        void print(JsonWriter w);

        /**
         * The path parameters every route that calls it must bind ({@code id} for an HTTP upstream at
         * {@code http://host/users/{id}}); none by default.
         */
        default List<String> pathParameters() {
            return List.of();
        }

        /**
         * Why a proxy route cannot forward to it, as the end of a sentence about the route's
         * upstream ({@code must be an http upstream with policy proxy}); empty when it can.
         */
        Optional<String> cannotForward();

        /** True when a composed call may give it a method, a path and headers (an HTTP upstream). */
        boolean takesCallShape();

        /** The fields of its own a composed call to it may carry ({@code cache} for an HTTP upstream); none by default. */
        default List<String> callFields() {
            return List.of();
        }

        /**
         * Reads those fields of one composed call to it into what the call carries to its layers
         * (the core carries them unread); called once the call's own fields are read.
         *
         * @throws RouteFileException naming the field and the bad value
         */
        default Extensions readCall(Fields call) throws RouteFileException {
            return Extensions.NONE;
        }

        /**
         * True when it was read with a file's contents (a CA file): a reload cannot see that the file
         * is the same, so it builds the upstream afresh.
         */
        default boolean readsFiles() {
            return false;
        }
    }
}
