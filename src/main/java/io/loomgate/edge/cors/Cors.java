package io.loomgate.edge.cors;

import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import io.loomgate.http.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Cross-origin resource sharing for a route (the Fetch standard's CORS protocol): loomgate answers
 * a preflight itself, and adds the response headers that let a browser page from an allowed origin
 * read the answer. It is not access control: a request from another origin is still served, only
 * without the headers, so the browser keeps the answer from the page.
 *
 * @param origins     allowed origins, exactly as browsers send them ({@code https://app.example.com}),
 *                    or {@code *} for any (never with credentials)
 * @param methods     methods a page may use
 * @param headers     request headers a page may send (beyond the CORS-safelisted ones)
 * @param expose      response headers a page may read (beyond the safelisted ones)
 * @param maxAge      how long a browser may keep a preflight's answer
 * @param credentials whether pages may send cookies or HTTP authentication
 */
public record Cors(List<String> origins, List<String> methods, List<String> headers, List<String> expose,
                   Duration maxAge, boolean credentials) {

    /** Headers a page may read by default: loomgate's own, and the rate-limit ones. */
    public static final List<String> DEFAULT_EXPOSE = List.of("X-Request-Id", "X-Loomgate-Completed", "Server-Timing",
            "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After");

    public Cors {
        origins = List.copyOf(origins);
        methods = List.copyOf(methods);
        headers = List.copyOf(headers);
        expose = List.copyOf(expose);
        Objects.requireNonNull(maxAge, "maxAge");
        if (credentials && origins.contains("*")) {
            throw new IllegalArgumentException("origins \"*\" cannot go with credentials");
        }
    }

    public boolean allows(String origin) {
        return origin != null && (origins.contains("*") || origins.contains(origin));
    }

    /**
     * The answer to a preflight from {@code origin} asking for {@code method} and {@code requested}
     * headers: 204 with what is allowed, or 403 when the origin, the method or a header is not.
     */
    public Response preflight(String origin, String method, String requested) {
        if (!allows(origin)) {
            throw refused("origin " + HttpError.echo(origin) + " is not allowed");
        }
        if (!methods.contains(method)) {
            throw refused("method " + HttpError.echo(method) + " is not allowed from other origins (allowed: "
                    + String.join(", ", methods) + ")");
        }
        List<String> asked = requested == null ? List.of() : List.of(requested.split(",")).stream().map(String::strip)
                .filter(h -> !h.isEmpty()).toList();
        for (String h : asked) {
            if (headers.stream().noneMatch(a -> a.equalsIgnoreCase(h) || (a.equals("*") && !credentials))) {
                throw refused("header " + HttpError.echo(h) + " is not allowed from other origins");
            }
        }
        Map<String, String> h = allowOrigin(origin);
        h.put("Access-Control-Allow-Methods", String.join(", ", methods));
        if (!asked.isEmpty()) {
            h.put("Access-Control-Allow-Headers", String.join(", ", asked));
        }
        h.put("Access-Control-Max-Age", String.valueOf(maxAge.toSeconds()));
        h.put("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
        return new Response(204, Response.TEXT, new byte[0], Headers.builder().addAll(h).build());
    }

    /**
     * {@code response}, with the headers that let a page from {@code origin} read it, when it is
     * allowed. The route owns these headers: whatever {@code Access-Control-*} or
     * {@code Timing-Allow-Origin} an upstream sent (one that reflects any Origin, say) is dropped, and
     * {@code Origin} is added to the upstream's {@code Vary}, never put in its place.
     */
    public Response decorate(String origin, Response response) {
        List<String> vary = new ArrayList<>();
        for (String v : response.values("Vary")) {
            List.of(v.split(",")).stream().map(String::strip).filter(t -> !t.isEmpty()).forEach(vary::add);
        }
        if (vary.stream().noneMatch(t -> t.equalsIgnoreCase("Origin") || t.equals("*"))) {
            vary.add("Origin");
        }
        Response owned = response.withoutStreamed(n -> n.startsWith("access-control-") || n.equals("timing-allow-origin")
                || n.equals("vary")).withHeader("Vary", String.join(", ", vary));
        if (!allows(origin)) {
            return owned;
        }
        Map<String, String> h = allowOrigin(origin);
        List<String> readable = new ArrayList<>(DEFAULT_EXPOSE);
        expose.stream().filter(e -> readable.stream().noneMatch(r -> r.equalsIgnoreCase(e))).forEach(readable::add);
        h.put("Access-Control-Expose-Headers", String.join(", ", readable));
        h.put("Timing-Allow-Origin", h.get("Access-Control-Allow-Origin"));
        Response r = owned;
        for (Map.Entry<String, String> e : h.entrySet()) {
            r = r.withHeader(e.getKey(), e.getValue());
        }
        return r;
    }

    private Map<String, String> allowOrigin(String origin) {
        Map<String, String> h = new LinkedHashMap<>();   // loomgate's own, each once, in this order
        h.put("Access-Control-Allow-Origin", origins.contains("*") && !credentials ? "*" : origin);
        if (credentials) {
            h.put("Access-Control-Allow-Credentials", "true");
        }
        return h;
    }

    /**
     * The refusal of a preflight that asks for a method the path does not serve ({@code allow} is what
     * it serves), on a path whose routes have CORS: a 403 like any refused preflight, not the plain
     * {@code OPTIONS} answer, so the page's developer sees why.
     */
    public static HttpError unserved(String method, String allow) {
        return new HttpError(403, "cors_refused", "CORS preflight refused: method " + HttpError.echo(method)
                + " is not served here (allowed: " + allow + ")", Map.of(),
                Map.of("Allow", allow, "Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"));
    }

    private static HttpError refused(String why) {
        return new HttpError(403, "cors_refused", "CORS preflight refused: " + why);
    }

    /** True for a request a browser sends to ask first: OPTIONS with an Origin and the method it wants. */
    public static boolean isPreflight(String method, String origin, String requestMethod) {
        return method.toUpperCase(Locale.ROOT).equals("OPTIONS") && origin != null && requestMethod != null;
    }
}
