package io.loomgate;

import io.loomgate.config.Config;
import io.loomgate.core.fanout.AllPolicy;
import io.loomgate.core.fanout.AnyPolicy;
import io.loomgate.core.fanout.FallbackPolicy;
import io.loomgate.core.fanout.HedgePolicy;
import io.loomgate.core.fanout.QuorumPolicy;
import io.loomgate.core.fanout.SinglePolicy;
import io.loomgate.demo.SimulatedKind;
import io.loomgate.edge.auth.ApiKeyAuth;
import io.loomgate.edge.auth.Auth;
import io.loomgate.edge.auth.JwtAuth;
import io.loomgate.plan.PlanModules;
import io.loomgate.plan.RouteKinds;
import io.loomgate.upstream.http.HttpKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every module loomgate has, registered here and only here: the kinds of upstream, the fan-out
 * policies, the kinds of route, the fan-out engines and the authentication methods. A route file names them; the plan reader
 * finds them in this list. Adding a policy, an auth method or a kind of upstream is its own file(s),
 * one line here, its section in the docs, and its tests (docs/architecture.md).
 */
public final class Modules {

    private Modules() {
    }

    /**
     * The modules loomgate runs with, its upstream kinds made for {@code config}; closing them releases
     * what the kinds hold ({@code http}'s connection pool, the demo's sample file).
     */
    public static PlanModules open(Config config) {
        return of(new SimulatedKind(),
                new HttpKind(config.edge().trustedProxies(), config.edge().tls().isPresent() ? "https" : "http"));
    }

    /** The modules, with upstream kinds made by the caller (who closes them). */
    public static PlanModules of(SimulatedKind simulated, HttpKind http) {
        Map<String, List<String>> engines = new LinkedHashMap<>();
        engines.put("structured", List.of());
        engines.put("completable-future", List.of("common-pool", "virtual-threads"));
        return new PlanModules(
                List.of(simulated, http),
                List.of(SinglePolicy.MODULE, AllPolicy.MODULE, AnyPolicy.MODULE, FallbackPolicy.MODULE, QuorumPolicy.MODULE,
                        HedgePolicy.MODULE),
                List.of(RouteKinds.FAN_OUT, RouteKinds.PROXY, RouteKinds.COMPOSE),
                engines,
                List.of(Auth.NONE, ApiKeyAuth.MODULE, JwtAuth.MODULE));
    }
}
