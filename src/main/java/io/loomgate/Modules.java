package io.loomgate;

import io.loomgate.config.Config;
import io.loomgate.config.ThreadMode;
import io.loomgate.core.fanout.FanOut;
import io.loomgate.demo.Baselines;
import io.loomgate.observe.event.Events;
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
import java.util.concurrent.atomic.LongAdder;

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

    /** The engine a fan-out route runs on unless it names another ({@code "engine"}). */
    public static final String STRUCTURED = "structured";

    /**
     * The fan-out engines, by the key a route names them with ({@code engine}, or
     * {@code engine/executor}): the one list, which a start runs and a check reads.
     */
    public static Map<String, FanOut> engines(ThreadMode threads, Events events, LongAdder virtualStarted) {
        Map<String, FanOut> engines = new LinkedHashMap<>();
        engines.put(STRUCTURED, FanOut.structured(threads, virtualStarted));
        engines.put("completable-future/common-pool", Baselines.commonPool(events));
        engines.put("completable-future/virtual-threads", Baselines.virtualThreads(events, virtualStarted));
        return engines;
    }

    /** The modules, with upstream kinds made by the caller (who closes them). */
    public static PlanModules of(SimulatedKind simulated, HttpKind http) {
        Map<String, List<String>> engines = new LinkedHashMap<>();   // engine -> its executors, from the one list
        for (String key : engines(ThreadMode.VIRTUAL, Events.NONE, new LongAdder()).keySet()) {
            int slash = key.indexOf('/');
            List<String> executors = engines.computeIfAbsent(slash < 0 ? key : key.substring(0, slash), k -> new java.util.ArrayList<>());
            if (slash >= 0) {
                executors.add(key.substring(slash + 1));
            }
        }
        return new PlanModules(
                List.of(simulated, http),
                List.of(SinglePolicy.MODULE, AllPolicy.MODULE, AnyPolicy.MODULE, FallbackPolicy.MODULE, QuorumPolicy.MODULE,
                        HedgePolicy.MODULE),
                List.of(RouteKinds.FAN_OUT, RouteKinds.PROXY, RouteKinds.COMPOSE),
                engines,
                List.of(Auth.NONE, ApiKeyAuth.MODULE, JwtAuth.MODULE));
    }
}
