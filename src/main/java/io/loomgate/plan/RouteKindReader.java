package io.loomgate.plan;

import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;

/**
 * Reads, checks and prints one kind of route: the module of a {@link RouteKind}. Which reader a
 * route goes to is decided once, by its {@code policy} field; past that, nothing compares a kind
 * as text.
 */
public interface RouteKindReader {

    /** The kind it reads. */
    Class<? extends RouteKind> kind();

    /** True when a route whose {@code policy} is {@code policy} is of this kind. */
    boolean reads(String policy, PlanModules modules);

    /** True for a kind whose path is a prefix, ending in {@code /*} (a proxy); no other kind's may. */
    default boolean prefixPath() {
        return false;
    }

    /** The {@code policy} values it reads, for the message that lists them. */
    java.util.List<String> policies(PlanModules modules);

    /**
     * Reads the route at {@code path} (already checked) of this kind, every field it has.
     *
     * @throws RouteFileException naming the field and the bad value
     */
    RoutePlan read(Fields route, String path, RouteReading reading) throws RouteFileException;

    /** The route as a route file writes it: its {@code path} and {@code policy}, then the rest. */
    void print(RoutePlan route, JsonWriter w);
}
