package io.loomgate.upstream.http;

import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Template;
import io.loomgate.core.template.UnsafeValue;
import io.loomgate.edge.tls.ClientTls;
import io.loomgate.upstream.balance.Fleet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The endpoints an {@link HttpUpstream} sends its tries to: one {@code url}, or its
 * {@code endpoints} in a {@link Fleet} with their balance, hash key and health checks. Which one a
 * try takes, what the try taught about it, and what is known of each now.
 */
final class Endpoints {

    private final UpstreamId id;
    private final Fleet<Origin> fleet;
    private final Optional<Template> hashKey;
    private final Optional<HealthChecks> health;

    Endpoints(UpstreamId id, HttpSettings settings, Optional<ClientTls> tls, Http1Client client) {
        this.id = id;
        this.fleet = new Fleet<>(settings.urls().stream().map(u -> Origin.of(u, tls)).toList(), o -> o.host() + ":" + o.port(),
                settings.replicas().balance(), settings.replicas().outliers(), System::nanoTime);
        this.hashKey = settings.replicas().hashKey().map(Template::parse);
        this.health = settings.replicas().health().map(h -> new HealthChecks(id.value(), h, fleet, client));
    }

    /** The first endpoint: whose URL template checks a request before any try. */
    Origin first() {
        return fleet.members().getFirst().value();
    }

    /**
     * The endpoint for this try: by the upstream's balance, another one than this request's earlier
     * tries while there is another (so a retry or a hedge goes to a different replica).
     */
    Fleet.Member<Origin> choose(RequestContext ctx) {
        if (fleet.members().size() == 1) {
            return fleet.members().getFirst();   // one url: nothing to choose, nothing to remember
        }
        Set<String> tried = ctx.ledger().touched(id.value());
        String key = "";
        if (hashKey.isPresent()) {
            try {
                key = hashKey.get().render(p -> Bindings.request(ctx, p), Template.Encoding.TEXT);
            } catch (UnsafeValue absent) {
                key = "";   // a request without the key: all such requests share one place on the ring
            }
        }
        Fleet.Member<Origin> m = fleet.pick(tried, key);
        tried.add(m.key());
        return m;
    }

    /** A try on {@code endpoint} ended: {@code failed} by the endpoint itself or not, null when cancelled (nothing learnt). */
    void ended(Fleet.Member<Origin> endpoint, Boolean failed) {
        if (failed == null) {
            fleet.released(endpoint);
        } else {
            fleet.ended(endpoint, failed);
        }
    }

    void startChecks() {
        health.ifPresent(HealthChecks::start);
    }

    void stopChecks() {
        health.ifPresent(HealthChecks::close);
    }

    /** Each endpoint and what is known of it now, for the admin API and the metrics. */
    List<Map<String, Object>> state() {
        return fleet.members().stream().map(m -> {
            Map<String, Object> state = new LinkedHashMap<>();
            state.put("endpoint", m.key());
            state.put("outstanding", (long) m.outstanding());
            state.put("calls", m.calls());
            state.put("failures", m.failures());
            state.put("consecutiveFailures", (long) m.consecutiveFailures());
            state.put("ejected", fleet.ejected(m));
            state.put("healthy", m.up());
            state.put("ejections", (long) m.ejections());
            return state;
        }).toList();
    }
}
