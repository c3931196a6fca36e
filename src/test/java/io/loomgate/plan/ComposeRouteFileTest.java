package io.loomgate.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.loomgate.api.Endpoints;
import io.loomgate.config.AddressRanges;
import io.loomgate.core.compose.CallGraph;
import io.loomgate.core.compose.CallSpec;
import io.loomgate.demo.SimulatedKind;
import io.loomgate.module.RouteFileException;
import io.loomgate.upstream.http.HttpKind;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Composed routes and path parameters in the route file: every bad graph stops the start with one
 * line naming the file, the JSON path and the name at fault; a good one is read into the calls it
 * declares, each needing exactly the calls its placeholders and forEach name.
 */
class ComposeRouteFileTest {

    private final SimulatedKind simulated = new SimulatedKind();
    private final HttpKind http = new HttpKind(AddressRanges.NONE);

    @AfterEach
    void close() throws Exception {
        simulated.close();
        http.close();
    }

    /** A file with a simulated {@code orders}, an http {@code api}, an http {@code byid} whose URL needs {id}, and {@code routes}. */
    private Plan parse(String routes) throws RouteFileException {
        String json = """
                {"upstreams": [{"id": "orders", "kind": "simulated", "service": "db"},
                               {"id": "api", "kind": "http", "url": "http://127.0.0.1:1/"},
                               {"id": "byid", "kind": "http", "url": "http://127.0.0.1:1/things/{id}"}],
                 "routes": ROUTES}""".replace("ROUTES", routes);
        return PlanReader.parse(json, "routes.json", io.loomgate.Modules.of(simulated, http), Endpoints.OPERATOR_PATHS);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "path": "/a/{b.x}"}, "b": {"upstream": "api", "path": "/b/{a.x}"}}}]|routes.json: routes[0].calls has a cycle: a -> b -> a
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "path": "/a/{a.x}"}}}]|routes.json: routes[0].calls.a.path uses {a.x}, the call's own answer; got '/a/{a.x}'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "path": "/a/{c.x}"}, "b": {"upstream": "api", "path": "/b/{a.x}"}, "c": {"upstream": "api", "path": "/c/{b.x}"}}}]|routes.json: routes[0].calls has a cycle: a -> c -> b -> a
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "path": "/a/{nope.x}"}}}]|routes.json: routes[0].calls.a.path uses {nope.x}, which names no path parameter of this route, no call, and is not {query.NAME} or {header.NAME}; got '/a/{nope.x}'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "path": "/a/{name}"}}}]|routes.json: routes[0].calls.a.path uses {name}, which names no path parameter of this route, no call, and is not {query.NAME} or {header.NAME}; got '/a/{name}'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "path": "/a/{item.sku}"}}}]|routes.json: routes[0].calls.a.path uses {item.sku}, which only a forEach call has; got '/a/{item.sku}'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "path": "/a/{id"}}}]|routes.json: routes[0].calls.a.path must not have a '{' that is never closed (write {{ for a literal brace); got '/a/{id'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "path": "/a/{a..b}"}}}]|routes.json: routes[0].calls.a.path must not have '{a..b}', whose field '' is not letters, digits, - or _; got '/a/{a..b}'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "path": "a/{id}"}}}]|routes.json: routes[0].calls.a.path must start with '/' (it goes below the upstream's URL); got 'a/{id}'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "nope"}}}]|routes.json: routes[0].calls.a.upstream must be a declared upstream (orders, api, byid); got 'nope'
            [{"path": "/u/{id}", "policy": "compose", "calls": {}}]|routes.json: routes[0].calls must declare at least one call; got an object
            [{"path": "/u/{id}", "policy": "compose"}]|routes.json: routes[0].calls is missing; it must be an object of calls, name to call (policy compose)
            [{"path": "/u/{id}", "policy": "compose", "methods": ["POST"], "calls": {"a": {"upstream": "api", "body": "request"}, "b": {"upstream": "api", "body": "request"}}}]|routes.json: routes[0].calls.b.body is already the request's for another call: at most one call may carry it; got 'request'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "body": "request"}}}]|routes.json: routes[0].calls.a.body needs a route whose methods take a body (POST, PUT or PATCH); got 'request'
            [{"path": "/u/{id}", "policy": "compose", "methods": ["POST"], "calls": {"a": {"upstream": "api", "body": "client"}}}]|routes.json: routes[0].calls.a.body must be "request": the client's own body; got 'client'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "fallback": 1}}}]|routes.json: routes[0].calls.a.fallback is only for an optional call ("optional": true); got 1
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "concurrency": 2}}}]|routes.json: routes[0].calls.a.concurrency is only for a forEach call; got 2
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "forEach": "b.items"}}}]|routes.json: routes[0].calls.a.forEach must start with another call's name (this route has no other call); got 'b.items'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "forEach": "a.items"}}}]|routes.json: routes[0].calls.a.forEach must start with another call's name (this route has no other call); got 'a.items'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api"}, "b": {"upstream": "api", "forEach": "a.items", "concurrency": 0}}}]|routes.json: routes[0].calls.b.concurrency must be a whole number from 1 to 64; got 0
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "orders", "path": "/x"}}}]|routes.json: routes[0].calls.a.upstream is a simulated upstream, which takes no method, path or headers; got 'orders'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"query": {"upstream": "api"}}}]|routes.json: routes[0].calls.query must be named with 1 to 40 lower-case letters, digits and '-', and not with a path parameter's name or query, header, item, errors, jwt; got 'query'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"id": {"upstream": "api"}}}]|routes.json: routes[0].calls.id must be named with 1 to 40 lower-case letters, digits and '-', and not with a path parameter's name or query, header, item, errors, jwt; got 'id'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "headers": {"Host": "x"}}}}]|routes.json: routes[0].calls.a.headers.Host must be a header name that neither frames the message nor belongs to the connection (not Host, Content-Length, Transfer-Encoding, Connection, TE, Upgrade, Trailer, Keep-Alive, Expect or Proxy-*); got 'Host'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "method": "BREW"}}}]|routes.json: routes[0].calls.a.method must be one of GET, POST, PUT, DELETE, PATCH; got 'BREW'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "orders", "cache": false}}}]|routes.json: routes[0].calls.a.cache is not a field of a call to a simulated upstream (its fields: upstream, method, path, headers, body, optional, fallback, timeout, forEach, concurrency, maxItems, idempotent)
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "cache": true}}}]|routes.json: routes[0].calls.a.cache must be an object of cache settings (as an upstream's "cache") or false (no cache); got true
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "cache": {"ttl": "1s"}}}}]|routes.json: routes[0].calls.a.cache.ttl is not a field of cache (its fields: maxBytes, defaultTtl, staleWhileRevalidate, staleIfError, keyBy, storeWithSetCookie)
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "retries": 2}}}]|routes.json: routes[0].calls.a.retries is not a field of a call to a http upstream (its fields: upstream, method, path, headers, body, optional, fallback, timeout, forEach, concurrency, maxItems, idempotent, cache)
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api"}}, "answer": {"x": "{b.name}"}}]|routes.json: routes[0].answer.x uses {b.name}, which names no call, no path parameter, and is not {errors}, {query.NAME} or {header.NAME}; got '{b.name}'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api"}}, "answer": ["{item}"]}]|routes.json: routes[0].answer[0] uses {item}, which names no call, no path parameter, and is not {errors}, {query.NAME} or {header.NAME}; got '{item}'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api"}}, "upstreams": ["api"]}]|routes.json: routes[0].upstreams is not for policy compose: each call names its upstream; got 'an array'
            [{"path": "/u/{id}", "policy": "all", "upstreams": ["api"], "calls": {"a": {"upstream": "api"}}}]|routes.json: routes[0].calls is only for policy compose; got 'policy all'
            [{"path": "/u/{id}", "policy": "all", "upstreams": ["orders"]}, {"path": "/u/{key}", "policy": "all", "upstreams": ["orders"]}]|routes.json: routes[1].path '/u/{key}' matches the same paths as routes[0].path '/u/{id}' (only a literal segment beats a parameter)
            [{"path": "/u/{id}/{id}", "policy": "all", "upstreams": ["orders"]}]|routes.json: routes[0].path names '{id}' twice; got '/u/{id}/{id}'
            [{"path": "/u/{item}", "policy": "all", "upstreams": ["orders"]}]|routes.json: routes[0].path uses '{item}', a reserved name (errors, header, item, jwt, query); got '/u/{item}'
            [{"path": "/u/x{id}", "policy": "all", "upstreams": ["orders"]}]|routes.json: routes[0].path has 'x{id}', but a parameter is a whole segment, {name}, and only a final /* takes the rest; got '/u/x{id}'
            [{"path": "/u", "policy": "all", "upstreams": ["byid"]}]|routes.json: routes[0].upstreams[0] has a URL with {id}, which this route's path does not bind; got 'byid'
            [{"path": "/u/{id}", "policy": "all", "upstreams": ["orders"]}, {"path": "/u/{id}", "policy": "all", "upstreams": ["orders"]}]|routes.json: routes[1].path '/u/{id}' is declared twice (first at routes[0]); one path may have two routes only for different methods, hosts or match conditions
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "orders"}}, "methods": ["GET", "BREW"]}]|routes.json: routes[0].methods[1] must be one of GET, POST, PUT, DELETE, PATCH; got 'BREW'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "timeout": "forever"}}}]|routes.json: routes[0].calls.a.timeout must be a duration from 1ms to 1h such as 300ms, 1.5s, 2m or 1h; got 'forever'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "optional": "yes"}}}]|routes.json: routes[0].calls.a.optional must be true or false; got 'yes'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api"}, "b": {"upstream": "api", "forEach": "{a.items}"}}}]|routes.json: routes[0].calls.b.forEach names an earlier call's array without braces, such as orders.items; got '{a.items}'
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "api", "optinal": true, "fallback": 0}}}]|routes.json: routes[0].calls.a.optinal is not a field of a call to a http upstream (did you mean "optional"?) (its fields: upstream, method, path, headers, body, optional, fallback, timeout, forEach, concurrency, maxItems, idempotent, cache)
            [{"path": "/u/{id}", "policy": "compose", "calls": {"a": {"upstream": "nowhere", "pth": "/x"}}}]|routes.json: routes[0].calls.a.pth is not a field of a call (did you mean "path"?) (its fields: upstream, method, path, headers, body, optional, fallback, timeout, forEach, concurrency, maxItems, idempotent)
            """)
    void badGraphsAndPathsAreRefusedWithTheFileThePathAndTheName(String routes, String message) {
        assertEquals(message, assertThrows(RouteFileException.class, () -> parse(routes)).getMessage());
    }

    @Test
    void needsAreReadFromThePlaceholdersAndForEach() throws Exception {
        Plan table = parse("""
                [{"path": "/users/{id}/overview", "policy": "compose",
                  "calls": {"user":   {"upstream": "api", "path": "/users/{id}", "headers": {"X-Trace": "{header.X-Trace}"}},
                            "team":   {"upstream": "api", "path": "/teams/{user.teamId}?q={query.q}"},
                            "orders": {"upstream": "api", "path": "/orders?userId={id}", "optional": true, "fallback": []},
                            "items":  {"upstream": "api", "forEach": "orders.items", "path": "/items/{item.sku}", "concurrency": 3},
                            "clock":  {"upstream": "orders"}}}]""");
        CallGraph graph = ((RouteKind.Compose) table.routes().getFirst().kind()).graph();
        assertEquals(List.of("user", "team", "orders", "items", "clock"), graph.calls().stream().map(CallSpec::name).toList());
        assertEquals(Set.of(), graph.call("user").needs());
        assertEquals(Set.of("user"), graph.call("team").needs());
        assertEquals(Set.of(), graph.call("orders").needs());
        assertEquals(Set.of("orders"), graph.call("items").needs());
        assertEquals(3, graph.call("items").forEach().orElseThrow().concurrency());
        assertEquals(100, graph.call("items").forEach().orElseThrow().maxItems(), "the default limit");
        assertEquals(List.of("id"), graph.parameters());
    }

    @Test
    void pathParametersServeEveryPolicyAndOnePathMayHaveARoutePerMethod() throws Exception {
        Plan table = parse("""
                [{"path": "/u/{id}", "policy": "all", "upstreams": ["byid", "orders"]},
                 {"path": "/u/{id}", "policy": "compose", "methods": ["POST", "PUT"],
                  "calls": {"a": {"upstream": "api", "path": "/u/{id}", "body": "request"}}},
                 {"path": "/u/me", "policy": "single", "upstreams": ["orders"]}]""");
        assertEquals(3, table.routes().size());
        assertEquals("POST", ((RouteKind.Compose) table.routes().get(1).kind()).graph().call("a").method(), "a body call's method is the route's first");
    }
}
