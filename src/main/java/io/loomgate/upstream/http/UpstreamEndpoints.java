package io.loomgate.upstream.http;

import io.loomgate.client.Http1Client;
import io.loomgate.client.ClientBody;
import io.loomgate.client.IdleTimeout;
import io.loomgate.client.Origin;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Template;
import io.loomgate.core.template.UnsafeValue;
import io.loomgate.tls.ClientTls;
import io.loomgate.observe.histogram.Histogram;
import io.loomgate.upstream.EndpointNote;
import io.loomgate.upstream.EndpointState;
import io.loomgate.upstream.balance.Fleet;
import io.loomgate.upstream.balance.Outliers;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The endpoints an {@link HttpUpstream} sends its tries to: one {@code url}, or its
 * {@code endpoints} in a {@link Fleet} with their balance, hash key and health checks. Which one a
 * try takes, what the try taught about it, and what is known of each now.
 */
final class UpstreamEndpoints {

    private final UpstreamId id;
    private final Fleet<Origin> fleet;
    private final Optional<Template> hashKey;
    private final Optional<HealthChecks> health;
    private final boolean replicated;
    private final Outliers outliers;
    private final Resolution resolution;
    private final Http1Client client;
    /** Each endpoint's try latency, by its key. */
    private final Map<String, Histogram> latency = new ConcurrentHashMap<>();
    private static final Histogram EMPTY = new Histogram();

    UpstreamEndpoints(UpstreamId id, HttpSettings settings, Optional<ClientTls> tls, Http1Client client) {
        this.id = id;
        this.client = client;
        List<Origin> declared = settings.urls().stream().map(u -> Origin.of(u, tls).speaking(settings.protocol())).toList();
        this.fleet = new Fleet<>(declared, Origin::endpointName, settings.replicas().balance(), settings.replicas().outliers(),
                System::nanoTime, settings.replicas().slowStart());
        this.hashKey = settings.replicas().hashKey().map(Template::parse);
        this.health = settings.replicas().health().map(h -> new HealthChecks(id.value(), h, fleet, client));
        this.replicated = !settings.replicas().endpoints().isEmpty();
        this.outliers = settings.replicas().outliers();
        this.resolution = new Resolution(id.value(), replicated ? declared : List.of(), settings.replicas().resolveEvery(),
                this::resolved);
    }

    /**
     * A host name resolved to other addresses: the fleet becomes {@code now}; connections to an
     * address that went away close once idle (in-flight exchanges end as usual), and each endpoint
     * of the new fleet is health-checked.
     */
    private void resolved(List<Origin> now) {
        for (Origin o : now) {
            client.unretire(o.key());
        }
        for (Fleet.Member<Origin> gone : fleet.replace(now)) {
            client.retire(gone.value().key());
        }
        health.ifPresent(HealthChecks::sync);
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
            Fleet.Member<Origin> only = fleet.members().getFirst();   // one url: nothing to choose, nothing to remember
            ctx.ledger().tried(id.value(), only.key());
            return only;
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
        Fleet.Member<Origin> m = fleet.pickFor(tried, key);
        ctx.ledger().tried(id.value(), m.key());
        return m;
    }

    /** True for a fleet ({@code endpoints}): its tries are noted with their endpoint, and it has state to show. */
    boolean replicated() {
        return replicated;
    }

    /** A try on {@code endpoint} starts now; returns its start, for {@link #ended}. */
    long started(Fleet.Member<Origin> endpoint) {
        endpoint.started();
        if (replicated) {
            EndpointNote.tried(endpoint.key());
        }
        return System.nanoTime();
    }

    /** Whether an answer with {@code status} is the endpoint's own failure, as {@code outliers.failOn} counts them. */
    boolean failedBy(int status) {
        return outliers.counts(status);
    }

    /**
     * Whether {@code e} ended a try by the endpoint's own failure, as {@code outliers.failOn} counts
     * them; null when the try was cancelled or the client's body failed (nothing learnt of the endpoint).
     */
    Boolean failedBy(java.io.IOException e, boolean cancelled) {
        if (cancelled || ClientBody.failed(e)) {
            return null;
        }
        boolean timeout = e instanceof java.net.SocketTimeoutException || e instanceof IdleTimeout;
        return outliers.counts(timeout ? Outliers.Fault.TIMEOUT : Outliers.Fault.CONNECT);
    }

    /**
     * A try on {@code endpoint}, started at {@code startNanos}, ended: {@code failed} by the endpoint
     * itself or not, null when cancelled (nothing learnt, and no latency kept).
     */
    void ended(Fleet.Member<Origin> endpoint, Boolean failed, long startNanos) {
        if (replicated && failed != null) {
            latency.computeIfAbsent(endpoint.key(), k -> new Histogram()).record(System.nanoTime() - startNanos);
        }
        if (failed == null) {
            fleet.released(endpoint);
        } else {
            fleet.ended(endpoint, failed);
        }
    }

    /** True for several endpoints all of which are ejected or failing their health checks. */
    boolean allDown() {
        return replicated && fleet.allOut();
    }

    /** Starts the health checks and the resolving of host names, once its plan serves. */
    void startChecks() {
        health.ifPresent(HealthChecks::start);
        resolution.start();
    }

    void stopChecks() {
        resolution.close();
        health.ifPresent(HealthChecks::close);
    }

    /** Each endpoint and what is known of it now, for the admin API and the metrics; none for one {@code url}. */
    List<EndpointState> state() {
        if (!replicated) {
            return List.of();
        }
        return fleet.members().stream().map(m -> new EndpointState(m.key(), m.outstanding(), m.calls(), m.failures(),
                m.consecutiveFailures(), fleet.ejected(m), m.up(), m.ejections(),
                latency.getOrDefault(m.key(), EMPTY).snapshot())).toList();
    }
}
