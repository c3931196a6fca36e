package io.loomgate.api;

import io.loomgate.config.Durations;
import io.loomgate.config.ServiceOptions;
import io.loomgate.http.HttpError;
import io.loomgate.http.QueryParams;
import io.loomgate.service.CallPlan;
import io.loomgate.service.ServiceName;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The per-request knobs every aggregation endpoint takes, validated:
 * {@code fail=NAME[,NAME...]}, {@code delay=NAME:DURATION[,...]} (both repeatable),
 * {@code timeout=DURATION} and, where {@code compute} runs, {@code n}. A bad value is a 400 naming
 * the parameter and the value; unknown parameters are ignored.
 *
 * @param delays   latency overrides for this request
 * @param failures services this request wants to fail
 * @param timeout  this request's deadline
 * @param n        compute's bound
 */
record Knobs(Map<ServiceName, Duration> delays, Set<ServiceName> failures, Duration timeout, int n) {

    static final Duration MAX_DELAY = Duration.ofSeconds(60);
    private static final Duration MIN_TIMEOUT = Duration.ofMillis(1);

    static Knobs parse(QueryParams query, ServiceOptions options, boolean readsN) {
        Set<ServiceName> failures = EnumSet.noneOf(ServiceName.class);
        for (String name : items(query, "fail")) {
            failures.add(service("fail", name, name));
        }
        Map<ServiceName, Duration> delays = new EnumMap<>(ServiceName.class);
        for (String item : items(query, "delay")) {
            int colon = item.indexOf(':');
            if (colon < 0) {
                throw HttpError.badParameter("delay", item, "NAME:DURATION, e.g. db:300ms");
            }
            ServiceName service = service("delay", item.substring(0, colon), item);
            Duration d = duration("delay", item.substring(colon + 1), item, Duration.ZERO, MAX_DELAY);
            if (delays.put(service, d) != null) {
                throw HttpError.badParameter("delay", item, "one duration per service; " + service.wire() + " is named twice");
            }
        }
        Duration timeout = single(query, "timeout")
                .map(t -> duration("timeout", t, t, MIN_TIMEOUT, options.maxTimeout()))
                .orElse(options.timeout());
        int n = readsN ? single(query, "n").map(Knobs::n).orElse(CallPlan.DEFAULT_N) : CallPlan.DEFAULT_N;
        return new Knobs(delays, failures, timeout, n);
    }

    /** Every comma-separated item of every occurrence of {@code name}. */
    private static List<String> items(QueryParams query, String name) {
        return query.all(name).stream().flatMap(v -> List.of(v.split(",", -1)).stream()).toList();
    }

    private static java.util.Optional<String> single(QueryParams query, String name) {
        List<String> values = query.all(name);
        if (values.size() > 1) {
            throw HttpError.badParameter(name, String.join("&", values), "given once");
        }
        return values.stream().findFirst();
    }

    private static ServiceName service(String parameter, String name, String shown) {
        return ServiceName.fromWire(name).orElseThrow(() -> HttpError.badParameter(parameter, shown,
                "a service name (" + ServiceName.allWireNames() + ")"));
    }

    private static Duration duration(String parameter, String text, String shown, Duration min, Duration max) {
        String accepted = "a duration from " + Durations.format(min) + " to " + Durations.format(max)
                + " such as 300ms, 2s or 1m";
        Duration d;
        try {
            d = Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw HttpError.badParameter(parameter, shown, accepted);
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw HttpError.badParameter(parameter, shown, accepted);
        }
        return d;
    }

    private static int n(String text) {
        String accepted = "an integer from " + CallPlan.MIN_N + " to " + CallPlan.MAX_N;
        try {
            long n = Long.parseLong(text);
            if (n < CallPlan.MIN_N || n > CallPlan.MAX_N) {
                throw HttpError.badParameter("n", text, accepted);
            }
            return (int) n;
        } catch (NumberFormatException e) {
            throw HttpError.badParameter("n", text, accepted);
        }
    }
}
