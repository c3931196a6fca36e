package io.loomgate.api;

import io.loomgate.config.Durations;
import io.loomgate.core.call.Overrides;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.http.HttpError;
import io.loomgate.http.QueryParams;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The per-request knobs of a fan-out route, validated against the route: {@code timeout=DURATION}
 * always, to shorten the route's deadline; and, only on a route whose file says
 * {@code "clientKnobs": true} (the built-in demo's and the backend's do), {@code fail=NAME[,NAME...]}
 * and {@code delay=NAME:DURATION[,...]} (both repeatable, naming upstreams this route calls) and a
 * {@code timeout} longer than the route's own, up to {@code --max-timeout}. Elsewhere {@code fail}
 * and {@code delay} are ordinary query parameters that loomgate leaves alone, so no client can fail
 * calls or hold resources on a route that did not ask for it. A bad value is a 400 naming the
 * parameter and the value; unknown parameters are ignored (upstreams may read their own, such as
 * {@code n}).
 *
 * @param overrides the injected delays and failures
 * @param timeout   this request's deadline
 */
record Knobs(Overrides overrides, Duration timeout) {

    static final Duration MAX_DELAY = Duration.ofSeconds(60);
    private static final Duration MIN_TIMEOUT = Duration.ofMillis(1);

    /**
     * @param path           the route, for messages
     * @param calls          the upstreams the route calls
     * @param defaultTimeout the deadline when the request names none
     * @param maxTimeout     the largest deadline a request may ask for, where clients may lengthen it
     * @param clientKnobs    whether the route lets clients inject faults and lengthen the deadline
     */
    static Knobs parse(QueryParams query, String path, List<UpstreamId> calls, Duration defaultTimeout,
                       Duration maxTimeout, boolean clientKnobs) {
        Duration timeout = single(query, "timeout")
                .map(t -> timeout(t, defaultTimeout, maxTimeout, clientKnobs))
                .orElse(defaultTimeout);
        if (!clientKnobs) {
            return new Knobs(Overrides.NONE, timeout);
        }
        Set<UpstreamId> failures = new LinkedHashSet<>();
        for (String name : items(query, "fail")) {
            failures.add(service("fail", name, name, path, calls));
        }
        Map<UpstreamId, Duration> delays = new HashMap<>();
        for (String item : items(query, "delay")) {
            int colon = item.indexOf(':');
            if (colon < 0) {
                throw HttpError.badParameter("delay", item, "NAME:DURATION, e.g. db:300ms");
            }
            UpstreamId service = service("delay", item.substring(0, colon), item, path, calls);
            Duration d = duration("delay", item.substring(colon + 1), item, Duration.ZERO, MAX_DELAY);
            if (delays.put(service, d) != null) {
                throw HttpError.badParameter("delay", item, "one duration per service; " + service + " is named twice");
            }
        }
        return new Knobs(new Overrides(delays, failures), timeout);
    }

    /** A client may always shorten the deadline; lengthen it past the route's own only where the route file allows. */
    private static Duration timeout(String text, Duration routes, Duration max, boolean clientKnobs) {
        if (clientKnobs) {
            return duration("timeout", text, text, MIN_TIMEOUT, max);
        }
        try {
            return Durations.parseWithin(text, MIN_TIMEOUT, routes);
        } catch (IllegalArgumentException e) {
            throw HttpError.badParameter("timeout", text, e.getMessage() + " (this route's own deadline; a route file"
                    + " lets clients ask for more, up to --max-timeout, with \"clientKnobs\": true)");
        }
    }

    /** Every comma-separated item of every occurrence of {@code name}. */
    private static List<String> items(QueryParams query, String name) {
        return query.all(name).stream().flatMap(v -> List.of(v.split(",", -1)).stream()).toList();
    }

    private static Optional<String> single(QueryParams query, String name) {
        List<String> values = query.all(name);
        if (values.size() > 1) {
            throw HttpError.badParameter(name, String.join("&", values), "given once");
        }
        return values.stream().findFirst();
    }

    /** An upstream the route calls; anything else, known elsewhere or not, is a 400 that lists them. */
    private static UpstreamId service(String parameter, String name, String shown, String path, List<UpstreamId> calls) {
        if (UpstreamId.isValid(name) && calls.contains(UpstreamId.of(name))) {
            return UpstreamId.of(name);
        }
        String names = calls.stream().map(UpstreamId::value).collect(Collectors.joining(", "));
        throw HttpError.badParameter(parameter, shown, "a service " + path + " calls (" + names + ")");
    }

    private static Duration duration(String parameter, String text, String shown, Duration min, Duration max) {
        try {
            return Durations.parseWithin(text, min, max);
        } catch (IllegalArgumentException e) {
            throw HttpError.badParameter(parameter, shown, e.getMessage());
        }
    }
}
