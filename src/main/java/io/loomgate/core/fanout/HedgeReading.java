package io.loomgate.core.fanout;

import io.loomgate.config.Durations;
import io.loomgate.config.Latency;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a hedge route: {@code "hedge": {"after": "20ms"}} or {@code {"after": "p95", "floor": "5ms"}},
 * with an optional {@code "budget"} (default 0.05) and {@code "minPerSecond"}, the budget's floor
 * (default 2). A hedge has one upstream (the backup goes to it too) or two (primary, backup), and is
 * served for GET only: a request is sent twice only when sending it twice is harmless.
 */
final class HedgeReading implements PolicyModule {

    private static final List<String> HEDGE_FIELDS = List.of("after", "floor", "budget", "minPerSecond");
    private static final Duration LONGEST = Duration.ofHours(1);

    @Override
    public String name() {
        return "hedge";
    }

    @Override
    public List<String> fields() {
        return List.of("hedge");
    }

    @Override
    public PolicySpec read(Fields route, List<UpstreamId> upstreams) throws RouteFileException {
        if (upstreams.size() > 2) {
            throw route.bad("upstreams", "must name one upstream (the backup goes to it too) or two (primary, backup)"
                    + " with policy hedge", upstreams.size() + " upstreams");
        }
        Optional<Map<String, Object>> given = route.optionalObject("hedge");
        Fields f = route.nested(route.at("hedge"), given.orElse(Map.of()));
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
            Duration floor = f.optionalDuration("floor", Duration.ZERO, LONGEST).orElse(HedgeSettings.DEFAULT_FLOOR);
            settings = HedgeSettings.adaptive(p, floor, budget);
        } else {
            Duration fixed;
            try {
                fixed = Durations.parseWithin(after, Duration.ZERO, LONGEST);
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
        return settings.withMinPerSecond(floor);
    }

    @Override
    public void refuseOn(Fields route, String other) throws RouteFileException {
        if (route.optionalObject("hedge").isPresent()) {
            throw route.bad("hedge", "is only for policy hedge" + (other.equals("proxy")
                    ? " (a proxy forwards any method, and only idempotent GETs may be sent twice)" : ""), "policy " + other);
        }
    }
}
