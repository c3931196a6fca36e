package io.loomgate.plan;

import io.loomgate.config.Durations;
import io.loomgate.config.Latency;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.fanout.HedgeSettings;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the route fields that belong to one policy: {@code quorum}, {@code fallbacks} and
 * {@code hedge}. Each is required or refused by the route's policy, with a message that says which.
 */
final class PolicyReader {

    private static final List<String> HEDGE_FIELDS = List.of("after", "floor", "budget", "minPerSecond");

    private PolicyReader() {
    }

    /** {@code "quorum": k}: required with policy quorum, 1 to the number of upstreams; refused elsewhere. */
    static int quorum(Fields f, String policy, int parts) throws RouteFileException {
        var k = f.optionalInteger("quorum", 1, Math.max(1, parts));
        if (policy.equals("quorum") && k.isEmpty()) {
            throw f.missing("quorum", "a whole number from 1 to " + parts + " (how many upstreams must succeed)");
        }
        if (!policy.equals("quorum") && k.isPresent()) {
            throw f.bad("quorum", "is only for policy quorum", k.get());
        }
        return k.map(Long::intValue).orElse(0);
    }


    static Map<UpstreamId, Object> fallbacks(Fields f, String policy, List<UpstreamId> upstreams) throws RouteFileException {
        Optional<Map<String, Object>> given = f.optionalObject("fallbacks");
        if (given.isEmpty()) {
            return Map.of();
        }
        if (!policy.equals("fallback")) {
            throw f.bad("fallbacks", "are only for policy fallback", "policy " + policy);
        }
        Map<UpstreamId, Object> fallbacks = new LinkedHashMap<>();
        for (var e : given.get().entrySet()) {
            String field = "fallbacks." + e.getKey();
            UpstreamId id = RouteFile.id(f, field, e.getKey());
            if (!upstreams.contains(id)) {
                throw f.bad(field, "must be an upstream of this route (" + String.join(", ",
                        upstreams.stream().map(UpstreamId::value).toList()) + ")", e.getKey());
            }
            fallbacks.put(id, e.getValue());
        }
        return fallbacks;
    }

    /**
     * {@code "hedge": {"after": "20ms"}} or {@code {"after": "p95", "floor": "5ms"}}, with an optional
     * {@code "budget"} (default 0.05) and {@code "minPerSecond"}, the budget's floor (default 2).
     * Only for policy hedge, which has one or two upstreams and is
     * served for GET only: a request is sent twice only when sending it twice is harmless.
     */
    static Optional<HedgeSettings> hedge(Fields route, String policy, int upstreams, String source)
            throws RouteFileException {
        Optional<Map<String, Object>> given = route.optionalObject("hedge");
        if (!policy.equals("hedge")) {
            if (given.isPresent()) {
                throw route.bad("hedge", "is only for policy hedge" + (policy.equals("proxy")
                        ? " (a proxy forwards any method, and only idempotent GETs may be sent twice)" : ""), "policy " + policy);
            }
            return Optional.empty();
        }
        if (upstreams > 2) {
            throw route.bad("upstreams", "must name one upstream (the backup goes to it too) or two (primary, backup)"
                    + " with policy hedge", upstreams + " upstreams");
        }
        Fields f = route.nested(route.path() + ".hedge", given.orElse(Map.of()));
        String after = f.optionalString("after").orElse("p95");
        double budget = f.optionalNumber("budget", 0, 1).orElse(HedgeSettings.DEFAULT_BUDGET);
        if (budget == 0) {
            throw f.bad("budget", "must be above 0 (a hedge that may never send its backup is no hedge)", 0);
        }
        HedgeSettings settings;
        if (Latency.isTailName(after)) {
            double p = Double.parseDouble(after.substring(1));
            if (p <= 0 || p >= 100) {
                throw f.bad("after", "must name a percentile above 0 and below 100, such as p95", after);
            }
            Duration floor = f.optionalDuration("floor", Duration.ZERO, RouteFile.MAX_TIMEOUT).orElse(HedgeSettings.DEFAULT_FLOOR);
            settings = HedgeSettings.adaptive(p, floor, budget);
        } else {
            Duration fixed;
            try {
                fixed = Durations.parseWithin(after, Duration.ZERO, RouteFile.MAX_TIMEOUT);
            } catch (IllegalArgumentException e) {
                throw f.bad("after", "must be a percentile of the primary's recent latencies such as p95, or "
                        + e.getMessage(), after);
            }
            if (f.optionalString("floor").isPresent()) {
                throw f.bad("floor", "is only for an adaptive hedge (\"after\": \"p95\")", "after " + after);
            }
            settings = HedgeSettings.fixed(fixed, budget);
        }
        double floor = f.optionalNumber("minPerSecond", 0, 1000).orElse(HedgeSettings.DEFAULT_MIN_PER_SECOND);
        f.finish("a hedge", HEDGE_FIELDS);
        return Optional.of(settings.withMinPerSecond(floor));
    }
}
