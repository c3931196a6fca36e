package io.loomgate;

import io.loomgate.config.AddressRanges;
import io.loomgate.config.Config;
import io.loomgate.config.UsageException;
import io.loomgate.edge.ApiKeys;
import io.loomgate.edge.Auth;
import io.loomgate.edge.EdgeException;
import io.loomgate.edge.EdgePolicy;
import io.loomgate.edge.JwtVerifier;
import io.loomgate.edge.RateLimiter;
import io.loomgate.routefile.EdgeDecl;
import io.loomgate.routefile.RouteDecl;
import io.loomgate.routefile.RouteTable;
import io.loomgate.routing.Guard;
import java.time.Instant;
import java.util.Optional;

/**
 * Makes each route's {@link Guard} from its declared edge: the API keys of {@code --api-keys}
 * (read once, and only when a route asks for them), a verifier per JWT route, a rate limiter per
 * limited route, and CORS.
 */
final class Guards {

    private final Optional<ApiKeys> keys;
    private final AddressRanges trustedProxies;

    private Guards(Optional<ApiKeys> keys, AddressRanges trustedProxies) {
        this.keys = keys;
        this.trustedProxies = trustedProxies;
    }

    /**
     * @throws UsageException when a route requires API keys and there are none, or the file is bad
     */
    static Guards of(Config config, RouteTable table) throws UsageException {
        Optional<RouteDecl> needsKeys = table.routes().stream()
                .filter(r -> r.edge().auth().orElse(null) instanceof EdgeDecl.AuthDecl.ApiKey).findFirst();
        Optional<ApiKeys> keys = Optional.empty();
        if (config.edge().apiKeys().isPresent()) {
            try {
                keys = Optional.of(ApiKeys.read(config.edge().apiKeys().get()));
            } catch (EdgeException e) {
                throw new UsageException(e.getMessage());
            }
        } else if (needsKeys.isPresent()) {
            throw new UsageException(table.source() + ": route " + needsKeys.get().path()
                    + " requires an API key (\"auth\": \"apiKey\"), but no --api-keys file was given");
        }
        return new Guards(keys, config.edge().trustedProxies());
    }

    Guard of(EdgeDecl edge) {
        if (edge.isEmpty()) {
            return Guard.NONE;
        }
        Auth auth = switch (edge.auth().orElse(new EdgeDecl.AuthDecl.None())) {
            case EdgeDecl.AuthDecl.None none -> new Auth.None();
            case EdgeDecl.AuthDecl.ApiKey k -> new Auth.ApiKey(keys.orElseThrow(), k.nameHeader());
            case EdgeDecl.AuthDecl.Jwt j -> new Auth.Jwt(new JwtVerifier(j.settings(), Instant::now), j.forwardClaims());
        };
        Optional<RateLimiter> limiter = edge.rateLimit().map(s -> new RateLimiter(s, System::nanoTime));
        return new EdgePolicy(edge.cors(), auth, limiter, trustedProxies);
    }
}
