package io.loomgate.plan;

import io.loomgate.core.fanout.HedgeSettings;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.compose.CallGraph;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One declared route: a path whose GET fans out to its upstreams, a call graph
 * ({@code "policy": "compose"}), or a prefix ({@code /api/*}) proxied to one HTTP upstream.
 *
 * @param path      the path, e.g. {@code /aggregate} or {@code /users/{id}/overview}
 * @param policy    {@code single}, {@code all}, {@code any}, {@code fallback}, {@code quorum}, {@code hedge},
 *                  {@code proxy} or {@code compose}
 * @param engine    {@code structured} or {@code completable-future}
 * @param executor  for {@code completable-future}: {@code common-pool} or {@code virtual-threads}
 * @param upstreams the parts, in answer order
 * @param fallbacks for {@code fallback}: the JSON value standing in for a failed or late part
 * @param timeout   this route's default deadline, instead of {@code --timeout}
 * @param status    {@code policy} (the answer's status follows the policy) or {@code passthrough}
 *                  (a single upstream's own status is the answer's)
 * @param answer    {@code contract} (the JSON answer with every part) or {@code value} (a single
 *                  upstream's value itself, as a backend would answer)
 * @param quorum    for {@code quorum}: how many parts must succeed; 0 for other policies
 * @param hedge     for {@code hedge}: when the backup is sent and how many may be
 * @param clientKnobs whether clients may inject faults ({@code ?fail=}, {@code ?delay=}) and ask for
 *                  a deadline longer than the route's own ({@code ?timeout=}, up to {@code --max-timeout})
 * @param methods   the methods it serves: GET, or for {@code compose} those it declares
 * @param graph     for {@code compose}: its calls and answer
 * @param declared  for {@code compose}: its {@code calls} and {@code answer} as the file wrote them, for {@code --print-routes}
 * @param edge      who may call it, how often, and from which web origins
 */
public record RouteDecl(String path, String policy, String engine, Optional<String> executor,
                        List<UpstreamId> upstreams, Map<UpstreamId, Object> fallbacks, Optional<Duration> timeout,
                        String status, String answer, int quorum, Optional<HedgeSettings> hedge,
                        boolean clientKnobs, List<String> methods, Optional<CallGraph> graph, Map<String, Object> declared,
                        EdgeDecl edge) {

    public RouteDecl {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(executor, "executor");
        upstreams = List.copyOf(upstreams);
        fallbacks = Collections.unmodifiableMap(new LinkedHashMap<>(fallbacks));
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(hedge, "hedge");
        methods = List.copyOf(methods);
        Objects.requireNonNull(graph, "graph");
        declared = Collections.unmodifiableMap(new LinkedHashMap<>(declared));
        Objects.requireNonNull(edge, "edge");
    }

    /** True for a call graph ({@code "policy": "compose"}). */
    public boolean isCompose() {
        return graph.isPresent();
    }

    /** True when the route answers with its single upstream's value itself. */
    public boolean answersWithValue() {
        return answer.equals("value");
    }

    /** True for a reverse-proxy route ({@code "policy": "proxy"}). */
    public boolean isProxy() {
        return policy.equals("proxy");
    }

    /** True when a single upstream's own HTTP status is passed through. */
    public boolean passesStatusThrough() {
        return status.equals("passthrough");
    }
}
