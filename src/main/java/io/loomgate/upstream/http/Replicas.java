package io.loomgate.upstream.http;

import io.loomgate.config.Durations;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Placeholder;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import io.loomgate.upstream.balance.Balance;
import io.loomgate.upstream.balance.Outliers;
import io.loomgate.upstream.balance.SlowStart;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads an http upstream's replicas: {@code "endpoints"} (instead of {@code url}: URLs of one scheme,
 * no two on one host and port; a host name may stand for several addresses), {@code "balance"},
 * {@code "hashKey"} for {@code hash} (a template of the request: {@code {header.X-User}}, {@code {id}},
 * {@code {query.NAME}}), {@code "outliers"}, {@code "health"} and {@code "resolveEvery"}.
 */
final class Replicas {

    /** Checks one URL as an upstream's {@code url} is checked, naming {@code field}. */
    interface UrlCheck {
        void check(Fields fields, String field, String url) throws RouteFileException;
    }

    private Replicas() {
    }

    static HttpSettings.Replicas read(Fields f, UrlCheck check) throws RouteFileException {
        Optional<Object> given = f.optionalValue("endpoints");
        if (given.isEmpty()) {
            for (String only : List.of("balance", "hashKey", "outliers", "health", "resolveEvery")) {
                if (f.optionalValue(only).isPresent()) {
                    throw f.bad(only, "is for an upstream with \"endpoints\"", f.optionalValue(only).get());
                }
            }
            return HttpSettings.Replicas.ONE;
        }
        if (f.optionalValue("url").isPresent()) {
            throw f.bad("url", "goes with \"endpoints\" only as one of them: give either url or endpoints", f.optionalValue("url").get());
        }
        if (!(given.get() instanceof List<?> list) || list.isEmpty()) {
            throw f.bad("endpoints", "must be a non-empty array of http:// or https:// URLs", given.get());
        }
        List<String> urls = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String field = "endpoints[" + i + "]";
            if (!(list.get(i) instanceof String url)) {
                throw f.bad(field, "must be a URL", list.get(i));
            }
            check.check(f, field, url);
            if (!seen.add(hostAndPort(url))) {
                throw f.bad(field, "names a host and port listed before: an endpoint is a host and port, once", url);
            }
            if (!urls.isEmpty() && !scheme(url).equals(scheme(urls.getFirst()))) {
                throw f.bad(field, "must have the scheme of endpoints[0] (" + scheme(urls.getFirst()) + "://): one upstream, one scheme",
                        url);
            }
            urls.add(url);
        }
        String balanceText = f.optionalString("balance").orElse(Balance.LEAST_REQUEST.wire());
        Balance balance = Balance.fromWire(balanceText).orElseThrow(() -> f.bad("balance",
                "must be least-request, round-robin or hash", balanceText));
        Optional<String> hashKey = f.optionalString("hashKey");
        if (balance == Balance.HASH && hashKey.isEmpty()) {
            throw f.missing("hashKey", "a template of the request to hash, such as {header.X-User} (with \"balance\": \"hash\")");
        }
        if (balance != Balance.HASH && hashKey.isPresent()) {
            throw f.bad("hashKey", "is only for \"balance\": \"hash\"", hashKey.get());
        }
        if (hashKey.isPresent()) {
            List<Placeholder> names = f.template("hashKey", hashKey.get()).placeholders();
            if (names.isEmpty()) {
                throw f.bad("hashKey", "must name something of the request, such as {header.X-User}, {id} or {query.NAME}", hashKey.get());
            }
            for (Placeholder p : names) {
                boolean request = p.head().equals(Bindings.QUERY) || p.head().equals(Bindings.HEADER) ? p.fields().size() >= 1
                        : p.fields().isEmpty();
                if (!request) {
                    throw f.bad("hashKey", "may hold {name} (a path parameter), {query.NAME} or {header.NAME}, not " + p, hashKey.get());
                }
            }
        }
        Duration resolveEvery = f.optionalDuration("resolveEvery", Duration.ofSeconds(1), Duration.ofDays(1))
                .orElse(HttpSettings.Replicas.DEFAULT_RESOLVE_EVERY);
        Duration slow = f.optionalDuration("slowStart", Duration.ZERO, Duration.ofHours(1)).orElse(Duration.ZERO);
        if (!slow.isZero() && urls.isEmpty()) {
            throw f.bad("slowStart", "is for an upstream with \"endpoints\"", Durations.format(slow));
        }
        return new HttpSettings.Replicas(urls, balance, hashKey, outliers(f), new SlowStart(slow), health(f), resolveEvery);
    }

    private static Optional<HealthChecks.Settings> health(Fields f) throws RouteFileException {
        Optional<Map<String, Object>> o = f.optionalObject("health");
        if (o.isEmpty()) {
            return Optional.empty();
        }
        Fields h = f.nested(f.at("health"), o.get());
        String path = h.string("path");
        if (!path.startsWith("/") || path.chars().anyMatch(c -> c <= 0x20 || c >= 0x7f)) {
            throw h.bad("path", "must start with / and hold no space or control character", path);
        }
        Duration every = h.optionalDuration("every", Duration.ofMillis(10), Duration.ofHours(1)).orElse(Duration.ofSeconds(5));
        Duration timeout = h.optionalDuration("timeout", Duration.ofMillis(10), Duration.ofMinutes(1)).orElse(Duration.ofSeconds(1));
        int unhealthy = h.optionalInteger("unhealthyAfter", 1, 100).orElse(3L).intValue();
        int healthy = h.optionalInteger("healthyAfter", 1, 100).orElse(2L).intValue();
        Set<Integer> expect = new HashSet<>();
        Object raw = h.optionalValue("expect").orElse(null);
        if (raw instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                if (!(list.get(i) instanceof Long c) || c < 100 || c > 599) {
                    throw h.bad("expect[" + i + "]", "must be a status from 100 to 599", list.get(i));
                }
                expect.add(c.intValue());
            }
        } else if (raw != null) {
            throw h.bad("expect", "must be an array of statuses, such as [200, 204]", raw);
        }
        if (expect.isEmpty()) {
            expect.add(200);
        }
        boolean endsEjection = h.optionalBoolean("endsEjection").orElse(true);
        h.finish("health", List.of("path", "every", "timeout", "unhealthyAfter", "healthyAfter", "expect", "endsEjection"));
        return Optional.of(new HealthChecks.Settings(path, every, timeout, unhealthy, healthy, expect, endsEjection));
    }

    private static Outliers outliers(Fields f) throws RouteFileException {
        Optional<Map<String, Object>> o = f.optionalObject("outliers");
        if (o.isEmpty()) {
            return Outliers.DEFAULT;
        }
        Fields of = f.nested(f.at("outliers"), o.get());
        int failures = of.optionalInteger("consecutiveFailures", 1, 1000).orElse((long) Outliers.DEFAULT.consecutiveFailures()).intValue();
        Duration base = of.optionalDuration("baseEjection", Duration.ofMillis(1), Duration.ofHours(1))
                .orElse(Outliers.DEFAULT.baseEjection());
        int percent = of.optionalInteger("maxEjectedPercent", 0, 100).orElse((long) Outliers.DEFAULT.maxEjectedPercent()).intValue();
        Set<Outliers.Fault> failOn = new HashSet<>();
        Object kinds = of.optionalValue("failOn").orElse(null);
        if (kinds != null) {
            if (!(kinds instanceof List<?> list) || list.isEmpty()) {
                throw of.bad("failOn", "must be a non-empty array of connect, timeout, 5xx and gateway", kinds);
            }
            for (int i = 0; i < list.size(); i++) {
                Optional<Outliers.Fault> kind = list.get(i) instanceof String s ? Outliers.Fault.fromWire(s) : Optional.empty();
                if (kind.isEmpty()) {
                    throw of.bad("failOn[" + i + "]", "must be connect, timeout, 5xx or gateway", list.get(i));
                }
                failOn.add(kind.get());
            }
        }
        of.finish("outliers", List.of("consecutiveFailures", "baseEjection", "maxEjectedPercent", "failOn"));
        return new Outliers(failures, base, percent, failOn.isEmpty() ? Outliers.DEFAULT_FAIL_ON : failOn);
    }

    private static String hostAndPort(String url) {
        URI uri = URI.create(url.replaceAll("\\{[^}]*}", "x"));
        return uri.getHost() + ":" + (uri.getPort() >= 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80);
    }

    private static String scheme(String url) {
        return URI.create(url.replaceAll("\\{[^}]*}", "x")).getScheme();
    }
}
