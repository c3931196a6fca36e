package io.loomgate.routefile;

import io.loomgate.aggregate.HedgeSettings;
import io.loomgate.call.ServiceId;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One declared route: a path whose GET fans out to its upstreams, or a prefix ({@code /api/*})
 * proxied to one HTTP upstream.
 *
 * @param path      the exact path, e.g. {@code /aggregate}
 * @param policy    {@code single}, {@code all}, {@code any}, {@code fallback}, {@code quorum}, {@code hedge} or {@code proxy}
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
 */
public record RouteDecl(String path, String policy, String engine, Optional<String> executor,
                        List<ServiceId> upstreams, Map<ServiceId, Object> fallbacks, Optional<Duration> timeout,
                        String status, String answer, int quorum, Optional<HedgeSettings> hedge,
                        boolean clientKnobs) {

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
