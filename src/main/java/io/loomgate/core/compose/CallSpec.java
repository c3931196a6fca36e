package io.loomgate.core.compose;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.port.Extensions;
import io.loomgate.core.template.Template;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One call of a composed route, as its route file declares it, checked.
 *
 * @param name      the call's name, which placeholders use ({@code {user.teamId}})
 * @param upstream  the upstream it calls
 * @param method    the method, {@code GET} unless declared
 * @param path      the path and query below the upstream's URL, with placeholders; empty for the URL as it is
 * @param headers   extra headers, each value a template
 * @param sendsBody true for the one call that carries the client's body ({@code "body": "request"})
 * @param optional  true when its failure or lateness gives {@code fallback} (or null) instead of failing the route
 * @param fallback  for an optional call, what stands in for it (JSON); empty for null
 * @param timeout   its own limit below the request's deadline
 * @param forEach   when it runs once per element of an array from an earlier call
 * @param needs     the calls it waits for: those its placeholders and its forEach name
 * @param idempotent true when the route marks it safe to retry whatever its method ({@code "idempotent": true})
 * @param extensions what it asks of its upstream's own layers (a {@code "cache"} of its own), which the upstream's kind read
 */
public record CallSpec(String name, UpstreamId upstream, String method, Optional<Template> path,
                       Map<String, Template> headers, boolean sendsBody, boolean optional, Optional<Object> fallback,
                       Optional<Duration> timeout, Optional<ForEach> forEach, Set<String> needs, boolean idempotent,
                       Extensions extensions) {

    /**
     * {@code "forEach": "orders.items"}: once per element, at most {@code concurrency} at a time, and
     * no more than {@code maxItems} elements.
     *
     * @param source the call whose answer holds the array
     * @param fields where in that answer ({@code items})
     */
    public record ForEach(String source, List<String> fields, int concurrency, int maxItems) {
        public static final int DEFAULT_CONCURRENCY = 8;
        public static final int DEFAULT_MAX_ITEMS = 100;

        public ForEach {
            Objects.requireNonNull(source, "source");
            fields = List.copyOf(fields);
            if (concurrency < 1 || maxItems < 1) {
                throw new IllegalArgumentException("concurrency and maxItems must be >= 1: " + concurrency + ", " + maxItems);
            }
        }

        /** As the route file writes it: {@code orders.items}. */
        @Override
        public String toString() {
            return fields.isEmpty() ? source : source + "." + String.join(".", fields);
        }
    }

    public CallSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        headers = Map.copyOf(headers);
        Objects.requireNonNull(fallback, "fallback");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(forEach, "forEach");
        needs = Set.copyOf(needs);
        Objects.requireNonNull(extensions, "extensions");
    }
}
