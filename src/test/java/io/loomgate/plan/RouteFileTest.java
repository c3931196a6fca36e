package io.loomgate.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.api.Endpoints;
import io.loomgate.config.Latency;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.demo.SimulatedKind;
import io.loomgate.module.RouteFileException;
import io.loomgate.upstream.Faults;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The route file parser, on text: every problem found at startup, in one line that names the file and the JSON path. */
class RouteFileTest {

    private final SimulatedKind simulated = new SimulatedKind();
    private final io.loomgate.upstream.http.HttpKind http = new io.loomgate.upstream.http.HttpKind(io.loomgate.config.AddressRanges.NONE);

    @AfterEach
    void close() throws Exception {
        simulated.close();
        http.close();
    }

    private PlanModules modules() {
        return io.loomgate.Modules.of(simulated, http);
    }

    private Plan parse(String json) throws RouteFileException {
        return PlanReader.parse(json, "routes.json", modules(), Endpoints.OPERATOR_PATHS);
    }

    private static final String UPSTREAMS = """
            "upstreams": [{"id": "orders", "kind": "simulated", "service": "db", "latency": "40ms"},
                          {"id": "stock", "kind": "simulated", "service": "cache", "failureRate": 0.25}]""";

    /** A file with the two upstreams above and {@code routes}, a JSON array. */
    private static String file(String routes) {
        return "{" + UPSTREAMS + ", \"routes\": " + routes + "}";
    }

    @Test
    void aFileFromScratchParses() throws Exception {
        Plan t = parse(file("""
                [{"path": "/order", "policy": "all", "upstreams": ["orders", "stock"], "timeout": "500ms"},
                 {"path": "/order-or-stock", "policy": "any", "upstreams": ["stock", "orders"]},
                 {"path": "/safe", "policy": "fallback", "upstreams": ["orders"], "fallbacks": {"orders": {"n": 0}}},
                 {"path": "/old", "policy": "all", "engine": "completable-future", "executor": "virtual-threads",
                  "upstreams": ["orders"]}]"""));
        assertEquals(List.of(UpstreamId.of("orders"), UpstreamId.of("stock")), t.ids());
        assertEquals(new Faults(Duration.ofMillis(40), 0), t.upstream(UpstreamId.of("orders")).orElseThrow().faults());
        assertEquals(new Faults(Duration.ZERO, 0.25), t.upstream(UpstreamId.of("stock")).orElseThrow().faults());
        assertEquals(Latency.withTail(Duration.ofMillis(10), "p99.5", Duration.ofSeconds(1)),
                parse("{\"upstreams\": [{\"id\": \"api\", \"kind\": \"simulated\", \"service\": \"db\","
                        + " \"latency\": \"10ms,p99.5=1s\"}], \"routes\": []}").upstreams().getFirst().faults().latency());
        assertEquals(new io.loomgate.demo.SimulatedKind.Settings(io.loomgate.demo.SimulatedService.DB, Optional.empty(), Map.of(),
                Optional.empty()), t.upstreams().getFirst().settings());
        RoutePlan order = t.routes().getFirst();
        assertEquals("structured", ((RouteKind.FanOut) order.kind()).engine());
        assertEquals(Optional.of(Duration.ofMillis(500)), order.timeout());
        assertEquals(new io.loomgate.core.fanout.FallbackPolicy.Declared(Map.of(UpstreamId.of("orders"), Map.of("n", 0L))),
                ((RouteKind.FanOut) t.routes().get(2).kind()).policy());
        assertEquals(Optional.of("virtual-threads"), ((RouteKind.FanOut) t.routes().get(3).kind()).executor());
    }

    @Test
    void aBreakerTakesItsFieldsAndDefaultsTheRest() throws Exception {
        Plan t = parse("{\"upstreams\": [{\"id\": \"db\", \"kind\": \"simulated\", \"service\": \"db\","
                + " \"breaker\": {\"consecutiveFailures\": 3, \"coolDown\": \"2s\"}}], \"routes\": []}");
        assertEquals(Optional.of(new io.loomgate.upstream.BreakerSettings(3, 0.5, 20, Duration.ofSeconds(2))),
                t.upstreams().getFirst().breaker());
        assertEquals(t.upstreams(), parse(PlanJson.write(t, modules())).upstreams(), "printed and read back");
    }

    @Test
    void theBuiltInFileDeclaresEveryDocumentedRoute() throws Exception {
        Plan t = PlanReader.builtIn(modules(), Endpoints.OPERATOR_PATHS);
        assertEquals(List.of("/block", "/file", "/compute", "/cache", "/aggregate", "/first-success",
                "/aggregate-with-fallback", "/multi-aggregate", "/aggregate-old", "/aggregate-cf"),
                t.routes().stream().map(RoutePlan::path).toList());
        assertEquals(Latency.fixed(Duration.ofMillis(300)), t.upstream(UpstreamId.of("db")).orElseThrow().faults().latency());
        assertEquals(0.3, t.upstream(UpstreamId.of("file-flaky")).orElseThrow().faults().failureRate());
    }

    @Test
    void printingGivesAFileThatReadsBackToTheSameTable() throws Exception {
        Plan builtIn = PlanReader.builtIn(modules(), Endpoints.OPERATOR_PATHS);
        String printed = PlanJson.write(builtIn, modules());
        Plan again = parse(printed);
        assertEquals(builtIn.upstreams(), again.upstreams());
        assertEquals(builtIn.routes(), again.routes());
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            [{"path": "/x", "policy": "al", "upstreams": ["orders"]}, {"path": "/y", "policy": "all", "upstreams": ["orders"]}] | routes.json: routes[0].policy must be one of single, all, any, fallback, quorum, hedge, proxy, compose; got 'al'
            [{"path": "/x", "policy": "all", "upstreams": ["orders"]}, {"path": "/x", "policy": "any", "upstreams": ["stock"]}] | routes.json: routes[1].path '/x' is declared twice (first at routes[0]); one path may have two routes only for different methods, hosts or match conditions
            [{"path": "/x", "policy": "all", "upstreams": ["orders", "nope"]}] | routes.json: routes[0].upstreams[1] must be a declared upstream (orders, stock); got 'nope'
            [{"path": "/x", "policy": "all", "upstreams": ["orders"], "colour": "red"}] | routes.json: routes[0].colour is not a field of a route (its fields: path, policy, engine, executor, upstreams, timeout, status, answer, clientKnobs, methods, fallbacks, quorum, hedge, auth, rateLimit, preAuthLimit, cors, compress, host, match)
            [{"path": "/x", "policy": "all", "upstreams": ["orders"], "timeout": "5 s"}] | routes.json: routes[0].timeout must be a duration from 1ms to 1h such as 300ms, 1.5s, 2m or 1h; got '5 s'
            [{"path": "/x", "policy": "all", "upstreams": []}] | routes.json: routes[0].upstreams must name at least one upstream; got '[]'
            [{"path": "/x", "policy": "single", "upstreams": ["orders", "stock"]}] | routes.json: routes[0].upstreams must name exactly one upstream with policy single; got '2 upstreams'
            [{"path": "/x", "policy": "all", "upstreams": ["orders", "orders"]}] | routes.json: routes[0].upstreams[1] names an upstream the route already calls; got 'orders'
            [{"path": "x", "policy": "all", "upstreams": ["orders"]}] | routes.json: routes[0].path must start with '/' and hold at most 200 letters, digits and - . _ ~ / {} (and a final /* for a proxy); got 'x'
            [{"path": "/health", "policy": "all", "upstreams": ["orders"]}] | routes.json: routes[0].path is taken by an operator endpoint (/, /dashboard, /debug/threads, /health, /livez, /metrics, /readyz, /debug/...); got '/health'
            [{"path": "/x", "upstreams": ["orders"]}] | routes.json: routes[0].policy is missing; it must be a string
            [{"path": "/x", "policy": "any", "engine": "completable-future", "executor": "common-pool", "upstreams": ["orders"]}] | routes.json: routes[0].policy must be all or single with engine completable-future (the baseline fails fast); got 'any'
            [{"path": "/x", "policy": "all", "engine": "completable-future", "upstreams": ["orders"]}] | routes.json: routes[0].executor is missing; it must be one of common-pool, virtual-threads with engine completable-future
            [{"path": "/x", "policy": "all", "engine": "threads", "upstreams": ["orders"]}] | routes.json: routes[0].engine must be one of structured, completable-future; got 'threads'
            [{"path": "/x", "policy": "all", "executor": "common-pool", "upstreams": ["orders"]}] | routes.json: routes[0].executor is only for engine completable-future; got 'common-pool'
            [{"path": "/x", "policy": "all", "upstreams": ["orders"], "fallbacks": {"orders": "x"}}] | routes.json: routes[0].fallbacks are only for policy fallback; got 'policy all'
            [{"path": "/x", "policy": "fallback", "upstreams": ["orders"], "fallbacks": {"stock": "x"}}] | routes.json: routes[0].fallbacks.stock must be an upstream of this route (orders); got 'stock'
            [42] | routes.json: routes[0] must be an object; got 42
            [{"path": "/api", "policy": "proxy", "upstreams": ["orders"]}] | routes.json: routes[0].path must end in /* for policy proxy (e.g. /api/*); got '/api'
            [{"path": "/api/*", "policy": "all", "upstreams": ["orders"]}] | routes.json: routes[0].path may end in /* only for policy proxy; got '/api/*'
            [{"path": "/api/*", "policy": "proxy", "upstreams": ["orders"]}] | routes.json: routes[0].upstreams[0] must be an http upstream with policy proxy; got 'orders'
            [{"path": "/x", "policy": "all", "upstreams": ["orders"], "status": "passthrough"}] | routes.json: routes[0].status passthrough needs policy single (one upstream whose status can be passed on); got 'passthrough'
            [{"path": "/x", "policy": "single", "upstreams": ["orders"], "status": "mirror"}] | routes.json: routes[0].status must be one of policy, passthrough; got 'mirror'
            [{"path": "/x", "policy": "quorum", "upstreams": ["orders", "stock"]}] | routes.json: routes[0].quorum is missing; it must be a whole number from 1 to 2 (how many upstreams must succeed)
            [{"path": "/x", "policy": "quorum", "quorum": 3, "upstreams": ["orders", "stock"]}] | routes.json: routes[0].quorum must be a whole number from 1 to 2; got 3
            [{"path": "/x", "policy": "all", "quorum": 1, "upstreams": ["orders", "stock"]}] | routes.json: routes[0].quorum is only for policy quorum; got 1
            [{"path": "/x", "policy": "any", "upstreams": ["orders"], "answer": "value"}] | routes.json: routes[0].answer value needs policy single (one upstream whose value is the answer); got 'value'
            [{"path": "/x", "policy": "any", "upstreams": ["orders"], "hedge": {"after": "20ms"}}] | routes.json: routes[0].hedge is only for policy hedge; got 'policy any'
            [{"path": "/x", "policy": "hedge", "upstreams": ["orders", "stock", "orders"]}] | routes.json: routes[0].upstreams[2] names an upstream the route already calls; got 'orders'
            [{"path": "/x", "policy": "hedge", "upstreams": ["orders"], "hedge": {"after": "soon"}}] | routes.json: routes[0].hedge.after must be a percentile of the primary's recent latencies such as p95, or a duration from 0ms to 1h such as 300ms, 1.5s, 2m or 1h; got 'soon'
            [{"path": "/x", "policy": "hedge", "upstreams": ["orders"], "hedge": {"after": "p100"}}] | routes.json: routes[0].hedge.after must be a percentile of the primary's recent latencies such as p95, or a duration from 0ms to 1h such as 300ms, 1.5s, 2m or 1h; got 'p100'
            [{"path": "/x", "policy": "hedge", "upstreams": ["orders"], "hedge": {"after": "p0"}}] | routes.json: routes[0].hedge.after must name a percentile above 0 and below 100, such as p95; got 'p0'
            [{"path": "/x", "policy": "hedge", "upstreams": ["orders"], "hedge": {"after": "20ms", "floor": "5ms"}}] | routes.json: routes[0].hedge.floor is only for an adaptive hedge ("after": "p95"); got 'after 20ms'
            [{"path": "/x", "policy": "hedge", "upstreams": ["orders"], "hedge": {"budget": 0}}] | routes.json: routes[0].hedge.budget must be above 0 (a hedge that may never send its backup is no hedge); got 0
            [{"path": "/x", "policy": "hedge", "upstreams": ["orders"], "hedge": {"budget": 2}}] | routes.json: routes[0].hedge.budget must be a number from 0 to 1; got 2
            [{"path": "/x", "policy": "hedge", "upstreams": ["orders"], "hedge": {"after": "p95", "copies": 3}}] | routes.json: routes[0].hedge.copies is not a field of a hedge (its fields: after, floor, budget, minPerSecond)
            [{"path": "/x", "policy": "hedge", "engine": "completable-future", "executor": "common-pool", "upstreams": ["orders"]}] | routes.json: routes[0].policy must be all or single with engine completable-future (the baseline fails fast); got 'hedge'
            """)
    void badRoutesAreRefusedWithTheFileThePathAndTheValue(String routes, String message) {
        RouteFileException e = assertThrows(RouteFileException.class, () -> parse(file(routes)));
        assertEquals(message, e.getMessage());
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            {"id": "db", "kind": "simulated", "service": "db", "latency": "fast"} | routes.json: upstreams[0].latency must be a duration from 0ms to 1m such as 300ms, 1.5s, 2m or 1h; got 'fast'
            {"id": "db", "kind": "simulated", "service": "db", "latency": "2m"} | routes.json: upstreams[0].latency must be a duration from 0ms to 1m such as 300ms, 1.5s, 2m or 1h; got '2m'
            {"id": "db", "kind": "simulated", "service": "db", "latency": "10ms,q99=1s"} | routes.json: upstreams[0].latency must be a latency whose tail is named pNN, such as 10ms,p99=1s or 10ms,p99.9=1s; got '10ms,q99=1s'
            {"id": "DB", "kind": "simulated", "service": "db"} | routes.json: upstreams[0].id must be an id of 1 to 40 lower-case letters, digits and '-'; got 'DB'
            {"id": "db", "kind": "grpc", "service": "db"} | routes.json: upstreams[0].kind must be one of simulated, http; got 'grpc'
            {"id": "db", "kind": "simulated", "service": "redis"} | routes.json: upstreams[0].service must be one of db, file, compute, cache, cache-1, cache-2, database, file-flaky, dataset, created; got 'redis'
            {"id": "db", "kind": "simulated", "service": "db", "failureRate": 2} | routes.json: upstreams[0].failureRate must be a number from 0 to 1; got 2
            {"id": "db", "kind": "simulated", "service": "db", "url": "http://x"} | routes.json: upstreams[0].url is not a field of a simulated upstream (its fields: id, kind, latency, failureRate, breaker, retry, service, value, data, key)
            {"id": "db", "kind": "simulated", "service": "file", "value": "x"} | routes.json: upstreams[0].value is only for the text services (db, cache, ...), not file; got 'x'
            {"kind": "simulated", "service": "db"} | routes.json: upstreams[0].id is missing; it must be a string
            {"id": "db", "kind": "simulated", "service": "db", "breaker": {"window": 0}} | routes.json: upstreams[0].breaker.window must be a whole number from 1 to 100000; got 0
            {"id": "db", "kind": "simulated", "service": "db", "breaker": {"coolDown": "soon"}} | routes.json: upstreams[0].breaker.coolDown must be a duration from 1ms to 1h such as 300ms, 1.5s, 2m or 1h; got 'soon'
            {"id": "db", "kind": "simulated", "service": "db", "breaker": {"trip": 3}} | routes.json: upstreams[0].breaker.trip is not a field of a circuit breaker (its fields: consecutiveFailures, failureRate, window, coolDown)
            {"id": "h", "kind": "http", "url": "ftp://x/y"} | routes.json: upstreams[0].url must be an absolute http:// or https:// URL with a host and no user info or fragment; got 'ftp://x/y'
            {"id": "h", "kind": "http", "url": "http://127.0.0.1:99999"} | routes.json: upstreams[0].url has port 99999; a port is 1 to 65535; got 'http://127.0.0.1:99999'
            {"id": "h", "kind": "http", "endpoints": []} | routes.json: upstreams[0].endpoints must be a non-empty array of http:// or https:// URLs; got an array
            {"id": "h", "kind": "http", "endpoints": ["http://a:1", "https://b:2"]} | routes.json: upstreams[0].endpoints[1] must have the scheme of endpoints[0] (http://): one upstream, one scheme; got 'https://b:2'
            {"id": "h", "kind": "http", "endpoints": ["http://a:1", "http://a:1"]} | routes.json: upstreams[0].endpoints[1] names a host and port listed before: an endpoint is a host and port, once; got 'http://a:1'
            {"id": "h", "kind": "http", "endpoints": ["http://a/x", "http://a:80/y"]} | routes.json: upstreams[0].endpoints[1] names a host and port listed before: an endpoint is a host and port, once; got 'http://a:80/y'
            {"id": "h", "kind": "http", "endpoints": ["http://a:1", "ftp://b"]} | routes.json: upstreams[0].endpoints[1] must be an absolute http:// or https:// URL with a host and no user info or fragment; got 'ftp://b'
            {"id": "h", "kind": "http", "url": "http://a:1", "endpoints": ["http://b:1"]} | routes.json: upstreams[0].url goes with "endpoints" only as one of them: give either url or endpoints; got 'http://a:1'
            {"id": "h", "kind": "http", "url": "http://a:1", "balance": "hash"} | routes.json: upstreams[0].balance is for an upstream with "endpoints"; got 'hash'
            {"id": "h", "kind": "http", "endpoints": ["http://a:1", "http://b:1"], "balance": "random"} | routes.json: upstreams[0].balance must be least-request, round-robin or hash; got 'random'
            {"id": "h", "kind": "http", "endpoints": ["http://a:1", "http://b:1"], "balance": "hash"} | routes.json: upstreams[0].hashKey is missing; it must be a template of the request to hash, such as {header.X-User} (with "balance": "hash")
            {"id": "h", "kind": "http", "endpoints": ["http://a:1", "http://b:1"], "balance": "hash", "hashKey": "user"} | routes.json: upstreams[0].hashKey must name something of the request, such as {header.X-User}, {id} or {query.NAME}; got 'user'
            {"id": "h", "kind": "http", "endpoints": ["http://a:1", "http://b:1"], "health": {"path": "healthz"}} | routes.json: upstreams[0].health.path must start with / and hold no space or control character; got 'healthz'
            {"id": "h", "kind": "http", "endpoints": ["http://a:1", "http://b:1"], "health": {"path": "/h", "expect": [99]}} | routes.json: upstreams[0].health.expect[0] must be a status from 100 to 599; got 99
            {"id": "h", "kind": "http", "url": "http://a:1", "health": {"path": "/h"}} | routes.json: upstreams[0].health is for an upstream with "endpoints"; got an object
            {"id": "h", "kind": "http", "endpoints": ["http://a:1", "http://b:1"], "outliers": {"failOn": ["connect", "4xx"]}} | routes.json: upstreams[0].outliers.failOn[1] must be connect, timeout, 5xx or gateway; got '4xx'
            {"id": "h", "kind": "http", "endpoints": ["http://a:1", "http://b:1"], "outliers": {"failOn": []}} | routes.json: upstreams[0].outliers.failOn must be a non-empty array of connect, timeout, 5xx and gateway; got an array
            {"id": "c", "kind": "http", "url": "http://a:1", "cache": {"maxBytes": "lots"}} | routes.json: upstreams[0].cache.maxBytes must be a size from 1KB to 64GB (a number of bytes, or such as "512KB", "64MB", "1GB"); got 'lots'
            {"id": "c", "kind": "http", "url": "http://a:1", "cache": {"maxBytes": 10}} | routes.json: upstreams[0].cache.maxBytes must be a size from 1KB to 64GB (a number of bytes, or such as "512KB", "64MB", "1GB"); got 10
            {"id": "c", "kind": "http", "url": "http://a:1", "cache": {"keyBy": "ip"}} | routes.json: upstreams[0].cache.keyBy may only be "caller" (each caller's answers kept apart); got 'ip'
            {"id": "c", "kind": "http", "url": "http://a:1", "cache": {"ttl": "1s"}} | routes.json: upstreams[0].cache.ttl is not a field of cache (its fields: maxBytes, defaultTtl, staleWhileRevalidate, staleIfError, keyBy, storeWithSetCookie)
            {"id": "h", "kind": "http", "url": "http://a:1", "resolveEvery": "5s"} | routes.json: upstreams[0].resolveEvery is for an upstream with "endpoints"; got '5s'
            {"id": "h", "kind": "http", "endpoints": ["http://a.svc:1"], "resolveEvery": "10ms"} | routes.json: upstreams[0].resolveEvery must be a duration from 1s to 24h such as 300ms, 1.5s, 2m or 1h; got '10ms'
            {"id": "h", "kind": "http", "endpoints": ["http://a:1", "http://b:1"], "outliers": {"consecutiveFailures": 0}} | routes.json: upstreams[0].outliers.consecutiveFailures must be a whole number from 1 to 1000; got 0
            {"id": "h", "kind": "http", "url": "http://127.0.0.1:0/"} | routes.json: upstreams[0].url has port 0; a port is 1 to 65535; got 'http://127.0.0.1:0/'
            {"id": "h", "kind": "http", "url": "http://127.0.0.1:1/", "breakr": {}, "latency": "x"} | routes.json: upstreams[0].breakr is not a field of a http upstream (did you mean "breaker"?) (its fields: id, kind, latency, failureRate, breaker, retry, url, endpoints, balance, hashKey, outliers, health, resolveEvery, slowStart, forwardQuery, forwardHeaders, timeout, maxBodyBytes, idleTimeout, caFile, cache, preserveHost, forwarded, protocol)
            {"id": "h", "kind": "http", "url": "http://x/users/{user.id}"} | routes.json: upstreams[0].url may hold {name} (a path parameter), {query.NAME} or {header.NAME}, not {user.id} (a call's answer is for a compose call's path); got 'http://x/users/{user.id}'
            {"id": "h", "kind": "http", "url": "http://{host}/x"} | routes.json: upstreams[0].url may hold placeholders in its path and query, not in its host or port; got 'http://{host}/x'
            {"id": "h", "kind": "http", "url": "http://x/users/{id"} | routes.json: upstreams[0].url must not have a '{' that is never closed (write {{ for a literal brace); got 'http://x/users/{id'
            {"id": "h", "kind": "http", "url": "http://x/", "forwardHeaders": ["Connection"]} | routes.json: upstreams[0].forwardHeaders[0] must be a header name that is not hop-by-hop (Connection, Transfer-Encoding, ...) nor Host, Content-Length, Expect; got 'Connection'
            {"id": "h", "kind": "http", "url": "http://x/", "maxBodyBytes": 0} | routes.json: upstreams[0].maxBodyBytes must be a size from 1B to 64MB (a number of bytes, or such as "512KB", "64MB", "1GB"); got 0
            {"id": "h", "kind": "http"} | routes.json: upstreams[0].url is missing; it must be a string
            {"id": "h", "kind": "http", "url": "http://x/", "timeout": 500} | routes.json: upstreams[0].timeout must be a duration string such as "500ms" or "500s" (a number has no unit); got 500
            """)
    void badUpstreamsAreRefusedWithTheFileThePathAndTheValue(String upstream, String message) {
        String json = "{\"upstreams\": [" + upstream + "], \"routes\": []}";
        RouteFileException e = assertThrows(RouteFileException.class, () -> parse(json));
        assertEquals(message, e.getMessage());
    }

    @Test
    void aProxyNeedsAnHttpUpstreamWithoutAQuery() {
        String json = """
                {"upstreams": [{"id": "api", "kind": "http", "url": "http://127.0.0.1:9/api/?k=1"}],
                 "routes": [{"path": "/api/*", "policy": "proxy", "upstreams": ["api"]}]}""";
        assertEquals("routes.json: routes[0].upstreams[0] must have a URL without a query with policy proxy (the path "
                + "below the prefix is appended to it); got 'api'",
                assertThrows(RouteFileException.class, () -> parse(json)).getMessage());
    }

    @Test
    void aProxyIsNeverHedgedAndAHedgeDefaultsToAnAdaptiveP95() throws Exception {
        String proxy = """
                {"upstreams": [{"id": "api", "kind": "http", "url": "http://127.0.0.1:9/api/"}],
                 "routes": [{"path": "/api/*", "policy": "proxy", "upstreams": ["api"], "hedge": {"after": "20ms"}}]}""";
        assertEquals("routes.json: routes[0].hedge is only for policy hedge (a proxy forwards any method, and only "
                + "idempotent GETs may be sent twice); got 'policy proxy'",
                assertThrows(RouteFileException.class, () -> parse(proxy)).getMessage());
        RoutePlan hedged = parse(file("[{\"path\": \"/h\", \"policy\": \"hedge\", \"upstreams\": [\"orders\"]}]"))
                .routes().getFirst();
        assertEquals(io.loomgate.core.fanout.HedgeSettings.adaptive(95, Duration.ofMillis(5), 0.05),
                ((RouteKind.FanOut) hedged.kind()).policy());
    }

    @Test
    void everySizeTakesOneSyntax() throws Exception {
        String sized = "{\"upstreams\": [{\"id\": \"h\", \"kind\": \"http\", \"url\": \"http://x/\", \"maxBodyBytes\": \"1MB\","
                + " \"cache\": {\"maxBytes\": \"64MB\"}}], \"routes\": []}";
        String plan = parse(sized).toString();
        assertTrue(plan.contains("maxBodyBytes=1048576") && plan.contains("maxBytes=67108864"),
                "maxBodyBytes \"1MB\" is 1 MiB, as cache.maxBytes \"64MB\" is 64 MiB: " + plan);
    }

    @Test
    void wholeFileProblemsNameTheFile() {
        assertEquals("routes.json: routes[0] must be an object; got 'x'",
                assertThrows(RouteFileException.class, () -> parse(file("[\"x\"]"))).getMessage());
        String dup = "{\"upstreams\": [{\"id\": \"a\", \"kind\": \"simulated\", \"service\": \"db\"},"
                + " {\"id\": \"a\", \"kind\": \"simulated\", \"service\": \"db\"}], \"routes\": []}";
        assertEquals("routes.json: upstreams[1].id 'a' is declared twice (first at upstreams[0])",
                assertThrows(RouteFileException.class, () -> parse(dup)).getMessage());
        assertEquals("routes.json: extra is not a field of a route file (its fields: upstreams, routes, clientKnobs, auth, cors, authFailures, compress)",
                assertThrows(RouteFileException.class, () -> parse(file("[]").replace("}", ", \"extra\": 1}"))).getMessage());
        assertEquals("routes.json: upstream is not a field of a route file (did you mean \"upstreams\"?) (its fields: upstreams, routes,"
                        + " clientKnobs, auth, cors, authFailures, compress)",
                assertThrows(RouteFileException.class, () -> parse("{\"upstream\": [], \"routes\": []}")).getMessage(),
                "the unknown field is named, not the one it stands for said to be missing");
        assertEquals("routes.json: routes is missing; it must be an array",
                assertThrows(RouteFileException.class, () -> parse("{" + UPSTREAMS + "}")).getMessage());
        String notJson = assertThrows(RouteFileException.class, () -> parse("{\"upstreams\": [")).getMessage();
        assertEquals(true, notJson.startsWith("routes.json: not valid JSON: "), notJson);
        String misplaced = assertThrows(RouteFileException.class, () -> parse("{\n  \"upstreams\": [],\n  \"routes\": [}\n}")).getMessage();
        assertEquals("routes.json: not valid JSON: invalid JSON at line 3, column 14: unexpected character '}'", misplaced,
                "where an editor shows it, not a byte offset");
        assertEquals("routes.json: must be a JSON object with \"upstreams\" and \"routes\"",
                assertThrows(RouteFileException.class, () -> parse("[]")).getMessage());
    }
}
