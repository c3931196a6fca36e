package io.loomgate.edge;

import io.loomgate.config.AddressRanges;
import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.routing.Guard;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A route's edge, in its fixed order: a CORS preflight is answered; the caller is authenticated
 * ({@link Auth}); its rate limit is taken. Only then does the request meet the server's admission
 * limit and the route. Every answer of the route, refusals included, gets the CORS headers.
 *
 * <pre>{@code
 * Guard guard = new EdgePolicy(Optional.of(cors), auth, Optional.of(limiter), trustedProxies);
 * Route route = Route.get("/orders", handler).guardedBy(guard);
 * }</pre>
 */
public final class EdgePolicy implements Guard {

    private final Optional<Cors> cors;
    private final Auth auth;
    private final Optional<RateLimiter> limiter;
    private final AddressRanges trustedProxies;

    public EdgePolicy(Optional<Cors> cors, Auth auth, Optional<RateLimiter> limiter, AddressRanges trustedProxies) {
        this.cors = cors;
        this.auth = auth;
        this.limiter = limiter;
        this.trustedProxies = trustedProxies;
    }

    @Override
    public Verdict check(Request request) {
        String origin = request.headers().getFirst("Origin");
        String asked = request.headers().getFirst("Access-Control-Request-Method");
        if (cors.isPresent() && Cors.isPreflight(request.method(), origin, asked)) {
            return new Verdict.Answer(cors.get().preflight(origin, asked.strip(),
                    request.headers().getFirst("Access-Control-Request-Headers")));
        }
        Request who = request.by(auth.authenticate(request.headers()));
        if (limiter.isEmpty()) {
            return new Verdict.Pass(who);
        }
        RateLimiter.Decision d = limiter.get().take(key(limiter.get().settings().by(), who));
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("RateLimit-Limit", String.valueOf(d.limit()));
        headers.put("RateLimit-Remaining", String.valueOf(d.remaining()));
        headers.put("RateLimit-Reset", String.valueOf(d.resetSeconds()));
        if (!d.allowed()) {
            headers.put("Retry-After", String.valueOf(d.retryAfterSeconds()));
            throw new HttpError(429, "rate_limited", "more than " + fmt(limiter.get().settings().perSecond())
                    + " requests a second (bursts of " + d.limit() + ") for this " + describe(limiter.get().settings().by())
                    + "; retry after " + d.retryAfterSeconds() + " s", Map.of(), headers);
        }
        return new Verdict.Pass(who, headers);
    }

    @Override
    public Response decorate(Request request, Response response) {
        return cors.isEmpty() ? response : cors.get().decorate(request.headers().getFirst("Origin"), response);
    }

    @Override
    public boolean answersPreflight() {
        return cors.isPresent();
    }

    /** What the bucket is keyed by: the caller's name, its address, or a header's value. */
    private String key(String by, Request request) {
        return switch (by) {
            case "apiKey", "jwt.sub" -> request.caller().name().orElse("");
            case "ip" -> clientAddress(request);
            default -> {
                String value = request.headers().getFirst(by.substring("header.".length()));
                yield value == null ? "" : value;
            }
        };
    }

    /** The peer's address; behind a trusted proxy, the last address in X-Forwarded-For that is not a trusted proxy. */
    private String clientAddress(Request request) {
        InetAddress peer = request.remote() == null ? null : request.remote().getAddress();
        if (peer == null) {
            return "";
        }
        if (trustedProxies.contains(peer)) {
            List<String> hops = request.headers().getOrDefault("X-Forwarded-For", List.of()).stream()
                    .flatMap(v -> List.of(v.split(",")).stream()).map(String::strip).filter(s -> !s.isEmpty()).toList();
            for (int i = hops.size() - 1; i >= 0; i--) {
                if (!trustedProxies.containsLiteral(hops.get(i))) {
                    return hops.get(i);
                }
            }
        }
        return peer.getHostAddress();
    }

    private static String describe(String by) {
        return switch (by) {
            case "apiKey" -> "API key";
            case "jwt.sub" -> "token subject";
            case "ip" -> "client address";
            default -> by.substring("header.".length()) + " header value";
        };
    }

    private static String fmt(double perSecond) {
        return perSecond == Math.rint(perSecond) ? String.valueOf((long) perSecond) : String.valueOf(perSecond);
    }
}
