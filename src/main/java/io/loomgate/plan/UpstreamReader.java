package io.loomgate.plan;

import io.loomgate.config.Latency;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import io.loomgate.upstream.BreakerSettings;
import io.loomgate.upstream.Faults;
import io.loomgate.upstream.RetrySettings;
import io.loomgate.upstream.UpstreamKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one upstream declaration of a route file: the fields every kind has (id, kind, latency,
 * failure rate, breaker), then the kind's own fields, through its {@link UpstreamKind}.
 */
final class UpstreamReader {

    private static final List<String> UPSTREAM_FIELDS = List.of("id", "kind", "latency", "failureRate", "breaker", "retry");
    private static final List<String> RETRY_FIELDS = List.of("attempts", "backoff", "budget", "minPerSecond");
    private static final List<String> BREAKER_FIELDS = List.of("consecutiveFailures", "failureRate", "window", "coolDown");
    private static final Duration MAX_LATENCY = Duration.ofSeconds(60);

    private UpstreamReader() {
    }

    static UpstreamDecl read(Fields f, PlanModules modules, String source) throws RouteFileException {
        UpstreamId id = RouteFields.id(f, "id", f.string("id"));
        String kindName = f.string("kind");
        UpstreamKind kind = modules.upstreamKind(kindName).orElseThrow(() -> f.bad("kind", "must be one of "
                + String.join(", ", modules.upstreamKinds().stream().map(UpstreamKind::name).toList()), kindName));
        List<String> allowed = new ArrayList<>(UPSTREAM_FIELDS);
        allowed.addAll(kind.fields());
        f.expect("a " + kindName + " upstream", allowed);
        Latency latency = latency(f);
        double failureRate = f.optionalNumber("failureRate", 0, 1).orElse(0.0);
        Optional<BreakerSettings> breaker = breaker(f, source);
        RetrySettings retry = retry(f, source);
        UpstreamKind.Settings settings = kind.read(f);
        f.finish("a " + kindName + " upstream", allowed);
        return new UpstreamDecl(id, kind, settings, new Faults(latency, failureRate), breaker, retry);
    }

    /** {@code "latency": "300ms"} or, with a slow tail, {@code "10ms,p99=1s"}. */
    private static Latency latency(Fields f) throws RouteFileException {
        Optional<String> text = f.optionalString("latency");
        try {
            return text.isEmpty() ? Latency.NONE : Latency.parse(text.get(), MAX_LATENCY);
        } catch (IllegalArgumentException e) {
            throw f.bad("latency", "must be " + e.getMessage(), text.get());
        }
    }

    /**
     * {@code "retry": {"attempts": 3, "backoff": "20ms", "budget": 0.2, "minPerSecond": 10}}: every
     * field optional, each defaulting as {@link RetrySettings#NONE} (one try, so no retry).
     */
    private static RetrySettings retry(Fields upstream, String source) throws RouteFileException {
        Optional<Map<String, Object>> given = upstream.optionalObject("retry");
        if (given.isEmpty()) {
            return RetrySettings.NONE;
        }
        Fields f = upstream.nested(upstream.at("retry"), given.get());
        RetrySettings d = RetrySettings.NONE;
        RetrySettings r = new RetrySettings(
                f.optionalInteger("attempts", 1, 10).map(Long::intValue).orElse(2),
                f.optionalDuration("backoff", Duration.ZERO, Duration.ofSeconds(10)).orElse(Duration.ofMillis(20)),
                f.optionalNumber("budget", 0, 1).orElse(d.budget()),
                f.optionalNumber("minPerSecond", 0, 1_000_000).orElse(d.minPerSecond()));
        f.finish("a retry", RETRY_FIELDS);
        return r;
    }

    /** {@code "breaker": {...}}: every field optional, each defaulting as {@link BreakerSettings#DEFAULTS}. */
    private static Optional<BreakerSettings> breaker(Fields upstream, String source) throws RouteFileException {
        Optional<Map<String, Object>> given = upstream.optionalObject("breaker");
        if (given.isEmpty()) {
            return Optional.empty();
        }
        Fields f = upstream.nested(upstream.at("breaker"), given.get());
        BreakerSettings d = BreakerSettings.DEFAULTS;
        BreakerSettings b = new BreakerSettings(
                f.optionalInteger("consecutiveFailures", 1, 1_000_000).map(Long::intValue).orElse(d.consecutiveFailures()),
                f.optionalNumber("failureRate", 0.01, 1).orElse(d.failureRate()),
                f.optionalInteger("window", 1, 100_000).map(Long::intValue).orElse(d.window()),
                f.optionalDuration("coolDown", Duration.ofMillis(1), PlanReader.MAX_TIMEOUT).orElse(d.coolDown()));
        f.finish("a circuit breaker", BREAKER_FIELDS);
        return Optional.of(b);
    }
}
