package io.loomgate.edge;

import io.loomgate.config.AddressRanges;
import io.loomgate.edge.auth.Auth;
import io.loomgate.edge.cors.Cors;
import io.loomgate.edge.limit.AuthFailures;
import io.loomgate.edge.limit.RateLimiter;
import io.loomgate.http.ClientAddress;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.routing.Guard;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A route's edge, in its fixed order, cheapest and most anonymous first:
 * <ol>
 *   <li>a CORS preflight is answered;</li>
 *   <li>the route's pre-auth limit, per client address, is taken ({@code "preAuthLimit"});</li>
 *   <li>an address whose refused credentials ran out ({@link AuthFailures}) is refused with 429,
 *       before its credentials cost a lookup or a signature check;</li>
 *   <li>the caller is authenticated ({@link Auth}); a credential that was sent and refused counts
 *       against its address;</li>
 *   <li>its rate limit is taken, by the key the route names.</li>
 * </ol>
 * Only then does the request meet the server's admission limit and the route. Every answer of the
 * route, refusals included, gets the CORS headers.
 *
 * <pre>{@code
 * Guard guard = new EdgePolicy(Optional.of(cors), Optional.empty(), auth, failures, Optional.of(limiter), trustedProxies);
 * Route route = Route.get("/orders", handler).guardedBy(guard);
 * }</pre>
 */
public final class EdgePolicy implements Guard {

    private final Optional<Cors> cors;
    private final Optional<RateLimiter> preAuth;
    private final Auth auth;
    private final Optional<AuthFailures> failures;
    private final Optional<RateLimiter> limiter;
    private final AddressRanges trustedProxies;

    public EdgePolicy(Optional<Cors> cors, Optional<RateLimiter> preAuth, Auth auth, Optional<AuthFailures> failures,
                      Optional<RateLimiter> limiter, AddressRanges trustedProxies) {
        this.cors = cors;
        this.preAuth = preAuth;
        this.auth = auth;
        this.failures = auth instanceof Auth.None ? Optional.empty() : failures;
        this.limiter = limiter;
        this.trustedProxies = trustedProxies;
    }

    @Override
    public Verdict check(Request request) {
        String origin = request.headers().first("Origin");
        String asked = request.headers().first("Access-Control-Request-Method");
        if (cors.isPresent() && Cors.isPreflight(request.method(), origin, asked)) {
            return new Verdict.Answer(cors.get().preflight(origin, asked.strip(),
                    request.headers().first("Access-Control-Request-Headers")));
        }
        InetAddress client = ClientAddress.of(request.remote(), request.headers(), trustedProxies);
        byte[] address = ClientAddress.limitKey(client);
        if (preAuth.isPresent()) {
            refuseWhenEmpty(preAuth.get(), preAuth.get().take(address), "client address");
        }
        failures.ifPresent(f -> f.check(address));
        Request who;
        try {
            who = request.by(auth.authenticate(request.headers()));
        } catch (HttpError refused) {
            if (refused.status() == 401 && failures.isPresent() && sentCredentials(request)) {
                failures.get().failed(address);
            }
            throw refused;
        }
        if (limiter.isEmpty()) {
            return new Verdict.Pass(who);
        }
        RateLimiter l = limiter.get();
        String by = l.settings().by();
        RateLimiter.Decision d = by.equals("ip") ? l.take(address) : l.take(key(by, who));
        return new Verdict.Pass(who, Headers.builder().addAll(refuseWhenEmpty(l, d, describe(by))).build());
    }

    /** The RateLimit headers of {@code d}; a 429 with them and {@code Retry-After} when it was refused. */
    private static Map<String, String> refuseWhenEmpty(RateLimiter limiter, RateLimiter.Decision d, String per) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("RateLimit-Limit", String.valueOf(d.limit()));
        headers.put("RateLimit-Remaining", String.valueOf(d.remaining()));
        headers.put("RateLimit-Reset", String.valueOf(d.resetSeconds()));
        if (!d.allowed()) {
            headers.put("Retry-After", String.valueOf(d.retryAfterSeconds()));
            throw new HttpError(429, "rate_limited", "more than " + fmt(limiter.settings().perSecond())
                    + " requests a second (bursts of " + d.limit() + ") for this " + per
                    + "; retry after " + d.retryAfterSeconds() + " s", Map.of(), headers);
        }
        return headers;
    }

    /** True when the request carried a credential (a key or a token), so its refusal was a guess that failed. */
    private static boolean sentCredentials(Request request) {
        return request.headers().contains("Authorization") || request.headers().contains("X-Api-Key");
    }

    @Override
    public Response decorate(Request request, Response response) {
        return cors.isEmpty() ? response : cors.get().decorate(request.headers().first("Origin"), response);
    }

    @Override
    public boolean answersPreflight() {
        return cors.isPresent();
    }

    /** What the bucket is keyed by: the caller's name or a header's value (a digest of it is what is held). */
    private static String key(String by, Request request) {
        return switch (by) {
            case "apiKey", "jwt.sub" -> request.caller().name().orElse("");
            default -> {
                String value = request.headers().first(by.substring("header.".length()));
                yield value == null ? "" : value;
            }
        };
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
