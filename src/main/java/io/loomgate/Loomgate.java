package io.loomgate;

import io.loomgate.api.AdminControl;
import io.loomgate.api.OperatorPages;
import io.loomgate.config.AccessLogMode;
import io.loomgate.config.Config;
import io.loomgate.config.ObservabilityOptions;
import io.loomgate.config.UsageException;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.fanout.FanOut;
import io.loomgate.demo.SimulatedKind;
import io.loomgate.edge.listener.ConnectionMetrics;
import io.loomgate.edge.listener.Http2Metrics;
import io.loomgate.edge.listener.GatewayServer;
import io.loomgate.edge.listener.Lifecycle;
import io.loomgate.edge.listener.ShutdownReport;
import io.loomgate.edge.pipeline.Tracing;
import io.loomgate.edge.routing.Route;
import io.loomgate.edge.routing.Router;
import io.loomgate.tls.ServerTls;
import io.loomgate.observe.event.Events;
import io.loomgate.observe.MetricSet;
import io.loomgate.observe.log.AccessLog;
import io.loomgate.observe.log.LogQueue;
import io.loomgate.observe.metrics.GatewayMetrics;
import io.loomgate.observe.metrics.MetricsLogger;
import io.loomgate.observe.metrics.MetricsSource;
import io.loomgate.observe.metrics.VirtualThreads;
import io.loomgate.observe.otlp.OtlpExporter;
import io.loomgate.observe.otlp.SpanMetrics;
import io.loomgate.observe.timeline.RecentRequests;
import io.loomgate.plan.PlanModules;
import io.loomgate.core.port.Upstream;
import io.loomgate.upstream.Upstreams;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * A running loomgate: the composition root, the one place that knows both the core and the demo.
 * It compiles the {@link ServingPlan} (every check, every upstream built), then binds the listeners
 * and wires the plan to the engines, the events and the server; then it releases them in order. {@link Main} starts one from the command
 * line; tests start one on port 0.
 *
 * <pre>{@code
 * try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0"))) {
 *     HttpClient.newHttpClient().send(HttpRequest.newBuilder(gate.uri("/health")).build(), ofString());
 * }
 * }</pre>
 */
public final class Loomgate implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("loomgate");

    private final GatewayServer server;
    private final GatewayServer admin;
    private final LivePlan live;
    private final PlanModules modules;
    private final VirtualThreads virtualThreads;
    private final MetricsLogger metricsLogger;
    private final ConfigWatch watch;
    private final LogQueue accessLog;
    private final OtlpExporter traces;
    private ShutdownReport report;

    private Loomgate(GatewayServer server, GatewayServer admin, LivePlan live, PlanModules modules,
                     VirtualThreads virtualThreads, MetricsLogger metricsLogger, ConfigWatch watch, LogQueue accessLog,
                     OtlpExporter traces) {
        this.traces = traces;
        this.watch = watch;
        this.accessLog = accessLog;
        this.server = server;
        this.admin = admin;
        this.live = live;
        this.modules = modules;
        this.virtualThreads = virtualThreads;
        this.metricsLogger = metricsLogger;
    }


    public static Loomgate start(Config config) throws IOException, UsageException {
        return start(config, List.of(), Map.of());
    }

    /** Starts loomgate with {@code extraRoutes} added to its own. */
    public static Loomgate start(Config config, List<Route> extraRoutes) throws IOException, UsageException {
        return start(config, extraRoutes, Map.of());
    }

    /**
     * Starts loomgate with {@code extraRoutes} added to its own and some declared upstreams replaced
     * (they keep their declared latency and failure rate); tests make upstreams misbehave this way.
     *
     * @throws UsageException when the route file or a flag that refers to it is bad
     */
    public static Loomgate start(Config config, List<Route> extraRoutes, Map<UpstreamId, Upstream> replaced)
            throws IOException, UsageException {
        PlanModules modules = Modules.open(config);
        GatewayServer server = null;
        GatewayServer admin = null;
        VirtualThreads virtualThreads = null;
        LogQueue accessLog = null;
        OtlpExporter traces = null;
        try {
            ObservabilityOptions o = config.observability();
            GatewayMetrics metrics = new GatewayMetrics();
            RecentRequests recent = new RecentRequests();
            accessLog = accessLog(o);
            Events events = accessLog == null ? Events.all(metrics, recent)
                    : Events.all(metrics, recent, new AccessLog(o.accessLog(), accessLog, o.accessLogFile().isPresent()));
            if (accessLog != null) {
                metrics.accessLogDropped(accessLog::dropped);
            }
            traces = o.otlpEndpoint().map(uri -> new OtlpExporter(uri, Main.version())).orElse(null);
            Optional<Tracing> tracing = Optional.empty();
            if (traces != null) {
                tracing = Optional.of(new Tracing(o.traceSample(), traces::accept));
            }
            LongAdder virtualStarted = new LongAdder();
            Map<String, FanOut> engines = Modules.engines(config.server().threads(), events, virtualStarted);
            ServingPlan plan = ServingPlan.compile(config, modules, replaced, engines, Events.NONE);

            Lifecycle lifecycle = new Lifecycle();
            server = GatewayServer.bind(config.server(), lifecycle, virtualStarted, plan.tls().map(ServerTls.Listener::context),
                    config.edge().trustedProxies());
            if (o.adminPort().isPresent()) {
                admin = GatewayServer.bindAdmin(config.server(), o.adminHost(), o.adminPort().getAsInt(), o.adminNames(), lifecycle,
                        virtualStarted);
            }
            virtualThreads = VirtualThreads.start(virtualStarted);
            LivePlan live = new LivePlan(new LivePlan.Parts(config, lifecycle,
                    new LivePlan.Compiling(modules, replaced, engines, virtualStarted), new LivePlan.Observers(metrics, recent, events),
                    extraRoutes, admin != null));
            GatewayServer served = server;
            OtlpExporter exporter = traces;
            MetricsSource source = new MetricsSource(metrics, new ServerGaugesOf(server, config.server()),
                    () -> new UpstreamReadings(live.current().plan().upstreams()), virtualThreads, config.server().threads(),
                    lifecycle::uptimeMillis, Main.version(), () -> live.current().plan().edges().stats(), () -> {
                        List<MetricSet> sets = new ArrayList<>(List.of(ConnectionMetrics.of(served), Http2Metrics.of(served),
                                exporter == null ? SpanMetrics.NONE : SpanMetrics.of(exporter)));
                        live.current().plan().edges().redis().ifPresent(sets::add);
                        modules.upstreamKinds().forEach(k -> sets.add(k.metrics()));
                        return sets;
                    });
            live.first(plan, source);

            if (admin != null) {
                admin.start(Router.of(live.current().admin()), events, config.edge().trustedProxies());
            }
            server.start(Router.of(live.current().main()), events, config.edge().trustedProxies(), tracing);
            live.serving(server, admin);
            // Logged once serving: the first log line formats a time in the local zone, which loads the
            // zone rules and the locale data (40 to 50 ms), and the first request need not wait for it.
            LOG.log(Level.INFO, OperatorPages.of(admin != null, plan.plan().authenticates()).describe());
            MetricsLogger logger = o.metricsLog().isZero() ? null : MetricsLogger.start(source, o.metricsLog());
            ConfigWatch watch = config.watch() ? ConfigWatch.start(live::files, live::reload) : null;
            return new Loomgate(server, admin, live, modules, virtualThreads, logger, watch, accessLog, traces);
        } catch (IOException | UsageException | RuntimeException e) {
            if (server != null) {
                server.shutdown();
            }
            release(admin, virtualThreads, accessLog, traces, modules);
            throw e;
        }
    }

    /** What is released after the main server stopped, at shutdown or after a failed start; each may be absent (null). */
    private static void release(GatewayServer admin, VirtualThreads virtualThreads, LogQueue accessLog, OtlpExporter traces,
                                PlanModules modules) {
        if (admin != null) {
            admin.shutdown();
        }
        if (virtualThreads != null) {
            virtualThreads.close();
        }
        if (accessLog != null) {
            accessLog.close();
        }
        if (traces != null) {
            traces.close();
        }
        modules.close();
    }

    /** The access log's queue, when there is one: to the file, the console or the {@code loomgate.access} logger. */
    private static LogQueue accessLog(ObservabilityOptions o) throws IOException {
        if (o.accessLog() == AccessLogMode.OFF) {
            return null;
        }
        return new LogQueue(o.accessLogFile().isPresent() ? LogQueue.file(o.accessLogFile().get())
                : o.accessLog() == AccessLogMode.JSON ? LogQueue.console(System.out) : AccessLog.logger());
    }

    /** Opens the access-log file again, by its name: after a log rotation moved it away (SIGUSR1). */
    public void reopenLogs() {
        if (accessLog != null) {
            accessLog.reopen();
        }
    }

    public URI baseUri() {
        return server.baseUri();
    }

    /** {@code baseUri()} plus {@code pathAndQuery}, e.g. {@code uri("/aggregate?timeout=100ms")}. */
    public URI uri(String pathAndQuery) {
        return URI.create(server.baseUri() + pathAndQuery);
    }

    /**
     * {@code loomgate listening on http://127.0.0.1:8080 (threads=virtual)}, and with an admin
     * listener {@code ... (threads=virtual; admin on http://127.0.0.1:9091)}.
     */
    public String listeningLine() {
        String line = server.listeningLine();
        return admin == null ? line : line.substring(0, line.length() - 1) + "; admin on " + admin.baseUri() + ")";
    }

    /** The admin listener's base URI, or the main one's when there is no admin listener. */
    public URI adminUri(String pathAndQuery) {
        return URI.create((admin == null ? server : admin).baseUri() + pathAndQuery);
    }

    public GatewayServer server() {
        return server;
    }

    /** The upstreams of the plan serving now, and through them the log of every call. */
    public Upstreams upstreams() {
        return live.current().plan().upstreams();
    }

    /**
     * Reads and checks the route file again and, if it is good, serves it from the next request on;
     * a bad file keeps the running plan. {@code trigger} names what asked (SIGHUP, a watched file...).
     */
    public AdminControl.Reload reload(String trigger) {
        return live.reload(trigger);
    }

    /** The simulated upstream kind, which owns the sample file. */
    public SimulatedKind simulated() {
        return (SimulatedKind) modules.upstreamKind("simulated").orElseThrow();
    }

    /**
     * Drains and stops the server, then releases everything else (the metrics log, the JFR stream,
     * the sample file), and logs one final line. Idempotent.
     */
    public synchronized ShutdownReport shutdown() {
        if (report == null) {
            if (watch != null) {
                watch.close();
            }
            report = server.shutdown();
            live.current().plan().upstreams().deactivateAll();
            live.current().plan().edges().close();
            if (metricsLogger != null) {
                metricsLogger.close();
            }
            release(admin, virtualThreads, accessLog, traces, modules);
            LOG.log(Level.INFO, "stopped: " + report.describe());
        }
        return report;
    }

    @Override
    public void close() {
        shutdown();
    }
}
