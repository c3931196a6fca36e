package io.loomgate;

import io.loomgate.api.AdminControl;
import io.loomgate.api.AdminEndpoints;
import io.loomgate.api.Endpoints;
import io.loomgate.api.OperatorPages;
import io.loomgate.api.Wiring;
import io.loomgate.config.Config;
import io.loomgate.config.UsageException;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.compose.Composer;
import io.loomgate.core.fanout.Aggregator;
import io.loomgate.core.fanout.FanOut;
import io.loomgate.edge.listener.GatewayServer;
import io.loomgate.edge.listener.Lifecycle;
import io.loomgate.edge.routing.Route;
import io.loomgate.edge.routing.Router;
import io.loomgate.tls.ServerTls;
import io.loomgate.json.JsonWriter;
import io.loomgate.observe.event.Events;
import io.loomgate.observe.metrics.GatewayMetrics;
import io.loomgate.observe.metrics.MetricsSource;
import io.loomgate.observe.timeline.RecentRequests;
import io.loomgate.plan.PlanJson;
import io.loomgate.plan.PlanModules;
import io.loomgate.plan.UpstreamDecl;
import io.loomgate.core.port.Upstream;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * The plan being served, and its reload: "build a new plan, swap it in". A reload reads and checks
 * the route file completely ({@link ServingPlan#compile}) before anything changes; a bad file
 * changes nothing but the count of failed reloads and the last error. A good one is built into
 * routes and swapped into the listeners at once: a request already routed finishes on the plan it
 * began on (its routes, upstreams and deadline), and the next one is served by the new plan.
 * Unchanged upstreams keep their stacks and unchanged limits their buckets ({@link ServingPlan});
 * removed and changed upstreams are released once their last call ends ({@link Releases}).
 */
final class LivePlan implements AdminControl {

    private static final System.Logger LOG = System.getLogger("loomgate");

    /** One plan, served: what was compiled, the routes made of it, when, and from which bytes. */
    record Current(ServingPlan plan, List<Route> main, List<Route> admin, Instant loadedAt, String digest) {
    }

    /**
     * What does not change from one plan to the next: the process's configuration and lifecycle, what
     * a plan is compiled with, where what happens is told, the routes added beside the route file's
     * (tests'), and whether an admin listener serves the operator routes.
     */
    record Parts(Config config, Lifecycle lifecycle, Compiling compiling, Observers observers, List<Route> extraRoutes,
                 boolean hasAdmin) {
    }

    /**
     * What a plan is compiled with: the modules, upstreams a test put in place of declared ones, the
     * fan-out engines by key, and the count of virtual threads they start.
     */
    record Compiling(PlanModules modules, Map<UpstreamId, Upstream> replaced, Map<String, FanOut> engines,
                     LongAdder virtualStarted) {
    }

    /** Where what happens is told: the metrics, the recent requests' timelines, the one event sink. */
    record Observers(GatewayMetrics metrics, RecentRequests recent, Events events) {
    }

    private final Parts parts;
    private MetricsSource source;
    private GatewayServer server;
    private GatewayServer admin;
    private volatile Current current;
    private volatile String lastError = "";
    private volatile Instant lastErrorAt;
    private Optional<ServerTls.Listener> bound = Optional.empty();

    LivePlan(Parts parts) {
        this.parts = parts;
    }

    /** The first plan, before the listeners start: its routes are what they start with. */
    void first(ServingPlan plan, MetricsSource source) {
        this.source = source;
        this.bound = plan.tls();
        this.current = build(plan, digest(parts.config()));
        plan.upstreams().activate();
        plan.edges().activate();
    }

    /** Where the next plans are swapped in. */
    void serving(GatewayServer server, GatewayServer admin) {
        this.server = server;
        this.admin = admin;
    }

    Current current() {
        return current;
    }

    @Override
    public synchronized Reload reload(String trigger) {
        Current before = current;
        String digest = digest(parts.config());
        ServingPlan next;
        Current now;
        try {
            next = ServingPlan.compile(parts.config(), parts.compiling().modules(), parts.compiling().replaced(), parts.compiling().engines(), Events.NONE,
                    Optional.of(before.plan()));
            now = build(next, digest);
        } catch (UsageException | RuntimeException e) {   // nothing escapes a reload: the old plan keeps serving
            String why = e instanceof UsageException ? e.getMessage() : "an internal error (" + e + "); please report it";
            parts.observers().metrics().reloaded(false);
            lastError = why;
            lastErrorAt = Instant.now();
            LOG.log(Level.WARNING, "reload (" + trigger + ") refused, still serving the configuration loaded at "
                    + before.loadedAt() + ": " + why);
            return new Reload.Refused(why);
        }
        server.serve(Router.of(now.main()));
        if (admin != null) {
            admin.serve(Router.of(now.admin()));
        }
        bound.ifPresent(b -> next.tls().ifPresent(t -> b.keys().use(t.keys())));   // new handshakes, new certificate
        current = now;
        next.upstreams().activate();   // the new and changed ones; kept ones already run
        next.edges().activate();
        parts.observers().metrics().reloaded(true);
        lastError = "";
        String summary = Releases.after(before.plan(), next, parts.compiling().replaced(), parts.config().services().maxTimeout());
        LOG.log(Level.INFO, "reloaded " + next.plan().source() + " (" + trigger + "): " + summary);
        return new Reload.Done(summary);
    }

    private Current build(ServingPlan plan, String digest) {
        Config config = parts.config();
        Wiring wiring = new Wiring(config, parts.lifecycle(),
                new Wiring.Served(plan.upstreams(), new Aggregator(plan.upstreams()),
                        new Composer(plan.upstreams(), config.server().threads(), parts.compiling().virtualStarted()),
                        plan.routes().fanOuts(), plan.routes().proxies(), plan.routes().composes()),
                new Wiring.Seen(source, parts.observers().recent(), parts.observers().events()));
        OperatorPages pages = OperatorPages.of(parts.hasAdmin(), plan.plan().authenticates());
        List<Route> main = new ArrayList<>(Endpoints.main(wiring, pages));
        main.addAll(parts.extraRoutes());
        List<Route> adminRoutes = new ArrayList<>();
        if (parts.hasAdmin()) {
            adminRoutes.addAll(Endpoints.admin(wiring));
            adminRoutes.addAll(AdminEndpoints.of(this));
        }
        parts.observers().metrics().registerUpstreams(plan.upstreams().ids());
        parts.observers().metrics().registerRoutes(main.stream().map(Route::path).toList());
        parts.observers().metrics().registerRoutes(adminRoutes.stream().map(Route::path).toList());
        return new Current(plan, List.copyOf(main), List.copyOf(adminRoutes), Instant.now(), digest);
    }

    /**
     * The files a reload reads, absolute: the route file, the files it names ({@code caFile},
     * {@code jwksFile}: any field ending in {@code File}), and those the flags name (API keys, the
     * listener's certificate and key). {@code --watch} watches these.
     */
    java.util.Set<java.nio.file.Path> files() {
        java.util.Set<java.nio.file.Path> files = new java.util.HashSet<>();
        Config config = parts.config();
        config.routes().map(p -> p.toAbsolutePath().normalize()).ifPresent(r -> {
            files.add(r);
            named(PlanJson.redacted(current.plan().plan(), parts.compiling().modules()), r.getParent(), files);
        });
        config.edge().apiKeys().ifPresent(p -> files.add(p.toAbsolutePath().normalize()));
        config.edge().tls().ifPresent(t -> {
            switch (t) {
                case io.loomgate.config.TlsSource.Pem pem -> {
                    files.add(pem.certificates().toAbsolutePath().normalize());
                    files.add(pem.key().toAbsolutePath().normalize());
                }
                case io.loomgate.config.TlsSource.Keystore ks -> files.add(ks.file().toAbsolutePath().normalize());
            }
        });
        return files;
    }

    private static void named(Object tree, java.nio.file.Path folder, java.util.Set<java.nio.file.Path> files) {
        if (tree instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                if (k.toString().endsWith("File") && v instanceof String name) {
                    files.add(folder.resolve(name).toAbsolutePath().normalize());
                } else {
                    named(v, folder, files);
                }
            });
        } else if (tree instanceof List<?> l) {
            l.forEach(v -> named(v, folder, files));
        }
    }

    /** {@code sha256:HEX} of the route file's bytes as they are now, or {@code built-in}. */
    private static String digest(Config config) {
        if (config.routes().isEmpty()) {
            return "built-in";
        }
        try {
            byte[] sha = java.security.MessageDigest.getInstance("SHA-256").digest(java.nio.file.Files.readAllBytes(config.routes().get()));
            return "sha256:" + java.util.HexFormat.of().formatHex(sha);
        } catch (java.io.IOException | java.security.NoSuchAlgorithmException e) {
            return "unreadable (" + e.getClass().getSimpleName() + ")";
        }
    }

    @Override
    public void writeConfig(JsonWriter w) {
        Current c = current;
        w.beginObject().field("source", c.plan().plan().source()).field("digest", c.digest())
                .field("loadedAt", c.loadedAt().toString());
        w.name("reloads").beginObject().field("ok", parts.observers().metrics().reloads().ok())
                .field("failed", parts.observers().metrics().reloads().failed());
        if (!lastError.isEmpty()) {
            w.field("lastError", lastError).field("lastErrorAt", String.valueOf(lastErrorAt));
        }
        w.endObject();
        w.name("plan").tree(PlanJson.redacted(c.plan().plan(), parts.compiling().modules()));
        w.endObject();
    }

    @Override
    public java.util.OptionalInt purgeCache(String upstream, io.loomgate.upstream.cache.Purge what) {
        var caches = current.plan().upstreams().ids().stream().filter(id -> id.value().equals(upstream)).findFirst()
                .map(id -> current.plan().upstreams().caches(id)).orElse(List.of());
        if (caches.isEmpty()) {
            return java.util.OptionalInt.empty();
        }
        return java.util.OptionalInt.of(caches.stream().mapToInt(c -> c.purge(what)).sum());
    }

    @Override
    public void writeStore(JsonWriter w) {
        w.beginObject();
        current.plan().edges().redis().ifPresent(r -> r.json(w.name("redis")));
        w.endObject();
    }

    @Override
    public void writeUpstreams(JsonWriter w) {
        ServingPlan plan = current.plan();
        var breakers = plan.upstreams().breakers();
        w.beginObject();
        for (UpstreamDecl u : plan.plan().upstreams()) {
            w.name(u.id().value()).beginObject().field("kind", u.kind().name());
            var breaker = breakers.get(u.id());
            w.field("breaker", breaker == null ? "none" : breaker.state().name().toLowerCase(java.util.Locale.ROOT));
            w.field("inFlight", plan.upstreams().calls().inFlight(u.id()));
            u.kind().idleConnections(u.settings()).ifPresent(n -> w.field("idleConnections", n));
            var endpoints = plan.upstreams().endpoints(u.id());
            if (!endpoints.isEmpty()) {
                w.name("endpoints").tree(endpoints.stream().map(io.loomgate.upstream.EndpointState::json).toList());
            }
            var caches = plan.upstreams().caches(u.id());
            if (!caches.isEmpty()) {
                var c = io.loomgate.upstream.cache.CacheMetrics.total(caches);
                w.name("cache").beginObject().field("entries", c.entries()).field("bytes", c.bytes()).field("maxBytes", c.maxBytes()).endObject();
            }
            var retries = plan.upstreams().retries().get(u.id());
            w.name("retries").beginObject().field("sent", retries.sentCount()).field("refusedByBudget", retries.refusedCount())
                    .endObject();
            w.name("recentErrors").beginArray();
            long now = System.nanoTime();
            for (var r : plan.upstreams().calls().recentFailures(u.id(), 5)) {
                w.beginObject().field("secondsAgo", (now - r.endNanos()) / 1_000_000_000L).field("outcome", r.outcome().state());
                if (r.outcome() instanceof io.loomgate.core.call.Outcome.Failed f) {
                    w.field("reason", f.reason());
                } else if (r.outcome() instanceof io.loomgate.core.call.Outcome.Cancelled c) {
                    w.field("reason", c.why().why());
                }
                w.field("requestId", r.requestId()).endObject();
            }
            w.endArray().endObject();
        }
        w.endObject();
    }
}
