package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.upstream.Upstream;
import java.util.List;
import java.util.Map;

/**
 * A kind of upstream a route file may declare ({@code "kind": "simulated"}): it reads and checks
 * its own fields when the file is parsed, and builds the upstream when loomgate starts. The core
 * knows kinds only through this interface.
 */
public interface UpstreamKind {

    /** The {@code kind} value, e.g. {@code simulated}. */
    String name();

    /** The kind's own field names, for error messages. */
    List<String> fields();

    /**
     * Reads this kind's fields of one declaration; any field it does not read is refused afterwards.
     *
     * @return the settings to keep, in the order {@code --print-routes} shows them
     * @throws RouteFileException naming the field and the bad value
     */
    Map<String, Object> read(Fields fields) throws RouteFileException;

    /**
     * The path parameters a declaration needs from every route that calls it ({@code id} for an
     * HTTP upstream at {@code http://host/users/{id}}); none unless the kind says so.
     */
    default List<String> pathParameters(Map<String, Object> settings) {
        return List.of();
    }

    /** Builds the upstream of a declaration this kind has read. */
    Upstream create(UpstreamId id, Map<String, Object> settings);
}
