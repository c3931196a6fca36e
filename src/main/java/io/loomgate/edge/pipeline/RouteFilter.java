package io.loomgate.edge.pipeline;

import io.loomgate.edge.cors.Cors;
import io.loomgate.edge.routing.Route;
import io.loomgate.edge.routing.RouteMatch;
import io.loomgate.edge.routing.RouteMatcher;
import io.loomgate.edge.routing.RouteRequest;
import io.loomgate.edge.routing.Router;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import io.loomgate.http.Response;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Finds the request's route: 404 for no such path, 405 with {@code Allow} for a method the path
 * does not serve, 501 for a method loomgate knows nowhere, 204 with {@code Allow} for a plain
 * {@code OPTIONS}. A CORS preflight (an {@code OPTIONS} with {@code Origin} and
 * {@code Access-Control-Request-Method}) goes to the route of the method it asks about, when that
 * route has CORS settings to answer it.
 */
final class RouteFilter implements Filter {

    private final Supplier<Router> routers;

    RouteFilter(Router router) {
        this(() -> router);
    }

    /** Routes by the router {@code routers} gives at that moment (a reload swaps it). */
    RouteFilter(Supplier<Router> routers) {
        this.routers = routers;
    }

    @Override
    public String name() {
        return "route";
    }

    @Override
    public Response onRequest(Visit v) {
        String path = v.target().path();
        Router router = routers.get();   // once: the whole request sees one plan
        RouteRequest request = new RouteRequest(v.method(), path, RouteMatcher.hostOf(v.headers().first("Host")), v.headers(),
                v.target().query());
        switch (match(router, request)) {
            case RouteMatch.Found(Route route, Map<String, String> params) -> {
                v.routed(route, params);
                return null;
            }
            case RouteMatch.MethodNotAllowed(String pattern, String allow) -> {
                v.unmatched(pattern);
                throw new HttpError(405, "method_not_allowed", v.method() + " is not allowed on " + pattern,
                        Map.of(), Map.of("Allow", allow));
            }
            case RouteMatch.Options(String pattern, String allow) -> {
                v.unmatched(pattern);
                String asked = v.headers().first("Access-Control-Request-Method");
                if (Cors.isPreflight(v.method(), v.headers().first("Origin"), asked) && hasCors(router, allow, request)) {
                    throw Cors.unserved(asked.strip(), allow);
                }
                return new Response(204, Response.TEXT, new byte[0], Headers.of("Allow", allow));
            }
            case RouteMatch.NotFound() -> throw new HttpError(404, "not_found", "no route for " + HttpError.echo(path));
            case RouteMatch.NotImplemented(String m) ->
                    throw new HttpError(501, "not_implemented", "method '" + HttpError.echo(m) + "' is not one loomgate knows");
        }
    }

    /** True when a route at {@code path}, for one of the methods it serves, has CORS. */
    private static boolean hasCors(Router router, String allow, RouteRequest request) {
        for (String m : allow.split(",")) {
            if (router.match(as(request, m.strip())) instanceof RouteMatch.Found found && found.route().edge().cors().isPresent()) {
                return true;
            }
        }
        return false;
    }

    private static RouteMatch match(Router router, RouteRequest request) {
        RouteMatch match = router.match(request);
        Headers headers = request.headers();
        String asked = headers.first("Access-Control-Request-Method");
        if (request.method().equals("OPTIONS") && asked != null && headers.contains("Origin")
                && router.match(as(request, asked.strip())) instanceof RouteMatch.Found found && found.route().edge().cors().isPresent()) {
            return found;
        }
        return match;
    }

    /** {@code request} with another method: a preflight asks about the route of the method it names. */
    private static RouteRequest as(RouteRequest request, String method) {
        return new RouteRequest(method, request.path(), request.host(), request.headers(), request.query());
    }
}
