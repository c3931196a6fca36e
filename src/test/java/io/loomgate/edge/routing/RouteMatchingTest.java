package io.loomgate.edge.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.loomgate.edge.RouteEdge;
import io.loomgate.http.Headers;
import io.loomgate.http.QueryParams;
import io.loomgate.http.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one precedence rule, without sockets: host tier, then path, then conditions, then the file's order. */
class RouteMatchingTest {

    private static Route route(String name, String method, String path, List<String> hosts, Map<String, String> headers,
                               Map<String, String> query) {
        Handler h = request -> Response.text(200, Response.TEXT, name);
        return new Route(method, path, h, false, false, RouteEdge.NONE, new RouteMatcher(hosts, headers, query));
    }

    private static String name(RouteMatch m) throws Exception {
        return new String(((RouteMatch.Found) m).route().handler().handle(null).body(), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static RouteRequest req(String method, String path, String host, Headers headers, String query) {
        return new RouteRequest(method, path, RouteMatcher.hostOf(host), headers, QueryParams.parse(query));
    }

    private final Router router = Router.of(List.of(
            route("any-catch-all", "GET", "/*", List.of(), Map.of(), Map.of()),
            route("any-api", "GET", "/api/*", List.of(), Map.of(), Map.of()),
            route("health", "GET", "/health", List.of(), Map.of(), Map.of()),
            route("wild", "GET", "/*", List.of("*.example.com"), Map.of(), Map.of()),
            route("exact", "GET", "/*", List.of("api.example.com"), Map.of(), Map.of()),
            route("exact-v2", "GET", "/*", List.of("api.example.com"), Map.of("X-Version", "2"), Map.of()),
            route("exact-v2-beta", "GET", "/*", List.of("api.example.com"), Map.of("X-Version", "2"), Map.of("beta", "*")),
            route("exact-post", "POST", "/orders", List.of("api.example.com"), Map.of(), Map.of())));

    @Test
    void anExactHostBeatsAWildcardWhichBeatsNone() throws Exception {
        assertEquals("exact", name(router.match(req("GET", "/x", "API.Example.com:8443", Headers.EMPTY, null))),
                "case-insensitive, port ignored");
        assertEquals("wild", name(router.match(req("GET", "/x", "www.example.com", Headers.EMPTY, null))));
        assertEquals("wild", name(router.match(req("GET", "/x", "a.b.example.com.", Headers.EMPTY, null))), "a trailing dot");
        assertEquals("any-catch-all", name(router.match(req("GET", "/x", "example.com", Headers.EMPTY, null))),
                "*.example.com does not cover example.com itself");
        assertEquals("any-api", name(router.match(req("GET", "/api/x", "other.test", Headers.EMPTY, null))));
        assertEquals("exact", name(router.match(req("GET", "/api/x", "api.example.com", Headers.EMPTY, null))),
                "the host's tier before a longer path in the tier for every host");
    }

    @Test
    void aHostTierWithoutThePathFallsBackToTheRoutesForEveryHost() throws Exception {
        Router narrow = Router.of(List.of(route("health", "GET", "/health", List.of(), Map.of(), Map.of()),
                route("v1", "GET", "/v1/*", List.of("api.example.com"), Map.of(), Map.of())));
        assertEquals("health", name(narrow.match(req("GET", "/health", "api.example.com", Headers.EMPTY, null))));
        assertInstanceOf(RouteMatch.NotFound.class, narrow.match(req("GET", "/v1/x", "other.test", Headers.EMPTY, null)));
    }

    @Test
    void moreConditionsFirstThenTheFilesOrder() throws Exception {
        Headers v2 = Headers.of("X-Version", "2");
        assertEquals("exact-v2", name(router.match(req("GET", "/x", "api.example.com", v2, null))));
        assertEquals("exact-v2-beta", name(router.match(req("GET", "/x", "api.example.com", v2, "beta=0"))), "* is present");
        assertEquals("exact", name(router.match(req("GET", "/x", "api.example.com", Headers.of("X-Version", "3"), "beta=1"))));
        Router ordered = Router.of(List.of(route("first", "GET", "/x", List.of(), Map.of("A", "*"), Map.of()),
                route("second", "GET", "/x", List.of(), Map.of(), Map.of("q", "1"))));
        assertEquals("first", name(ordered.match(req("GET", "/x", "", Headers.of("A", "1"), "q=1"))), "equal conditions: the file's order");
        assertEquals("second", name(ordered.match(req("GET", "/x", "", Headers.EMPTY, "q=1"))));
        assertInstanceOf(RouteMatch.NotFound.class, ordered.match(req("GET", "/x", "", Headers.EMPTY, "q=2")));
    }

    @Test
    void aPathThatMatchesButNotTheMethodIs405WithAllow() {
        RouteMatch m = router.match(req("DELETE", "/orders", "api.example.com", Headers.EMPTY, null));
        assertEquals(new RouteMatch.MethodNotAllowed("/orders", "POST, OPTIONS"), m);
        assertEquals(new RouteMatch.Options("/orders", "POST, OPTIONS"), router.match(req("OPTIONS", "/orders", "api.example.com",
                Headers.EMPTY, null)));
    }

    @Test
    void twoRoutesWithTheSameMethodPathAndConditionsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Router.of(List.of(
                route("a", "GET", "/x", List.of("a.test"), Map.of(), Map.of()),
                route("b", "GET", "/x", List.of("a.test"), Map.of(), Map.of()))));
        Router.of(List.of(route("a", "GET", "/x", List.of("a.test"), Map.of(), Map.of()),
                route("b", "GET", "/x", List.of("b.test"), Map.of(), Map.of())));   // other hosts: fine
    }
}
