package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import java.util.Map;

/**
 * What reading one route needs from the rest of its file.
 *
 * @param source    the file, as messages name it
 * @param declared  the upstreams it declares, by id
 * @param fileKnobs the file's {@code clientKnobs}
 * @param fileEdge  the file's own {@code auth} and {@code cors}, which routes inherit
 * @param modules   the registered modules
 */
public record RouteReading(String source, Map<UpstreamId, UpstreamDecl> declared, boolean fileKnobs, EdgeDecl fileEdge,
                           PlanModules modules) {
}
