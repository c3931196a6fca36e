package io.loomgate.edge.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.http.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouterTest {

    private final Handler ok = request -> Response.text(200, Response.TEXT, "ok");
    private final Route health = Route.operator("/health", ok);
    private final Route block = Route.get("/block", ok);
    private final Route upload = new Route("POST", "/upload", ok, false);
    private final Router router = Router.of(List.of(health, block, upload));

    @Test
    void findsExactPaths() {
        assertSame(block, assertInstanceOf(RouteMatch.Found.class, router.match("GET", "/block")).route());
        assertSame(upload, assertInstanceOf(RouteMatch.Found.class, router.match("POST", "/upload")).route());
    }

    @Test
    void headIsServedWhereverGetIs() {
        assertSame(health, assertInstanceOf(RouteMatch.Found.class, router.match("HEAD", "/health")).route());
        assertInstanceOf(RouteMatch.MethodNotAllowed.class, router.match("HEAD", "/upload"));
    }

    @Test
    void unknownPathsAreNotFound() {
        assertInstanceOf(RouteMatch.NotFound.class, router.match("GET", "/nope"));
        assertInstanceOf(RouteMatch.NotFound.class, router.match("GET", "/block/"));
        assertInstanceOf(RouteMatch.NotFound.class, router.match("GET", "/BLOCK"));
        assertInstanceOf(RouteMatch.NotFound.class, router.match("DELETE", "/nope"));
    }

    @Test
    void aKnownPathWithTheWrongMethodListsWhatIsAllowed() {
        var match = assertInstanceOf(RouteMatch.MethodNotAllowed.class, router.match("POST", "/block"));
        assertEquals("GET, HEAD, OPTIONS", match.allow());
        var upload = assertInstanceOf(RouteMatch.MethodNotAllowed.class, router.match("GET", "/upload"));
        assertEquals("POST, OPTIONS", upload.allow());
    }

    @Test
    void optionsAnswersWithTheAllowHeader() {
        assertEquals("GET, HEAD, OPTIONS",
                assertInstanceOf(RouteMatch.Options.class, router.match("OPTIONS", "/health")).allow());
    }

    @Test
    void methodsHttpDoesNotDefineAreNotImplemented() {
        assertEquals("BREW", assertInstanceOf(RouteMatch.NotImplemented.class, router.match("BREW", "/block")).method());
        assertInstanceOf(RouteMatch.NotImplemented.class, router.match("get", "/block"));
    }

    @Test
    void duplicateRoutesAreRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> Router.of(List.of(block, Route.get("/block", ok))));
        assertEquals("duplicate route: GET /block", e.getMessage());
    }

    @Test
    void routesValidateTheirMethodAndPath() {
        assertEquals("path must start with '/': block",
                assertThrows(IllegalArgumentException.class, () -> Route.get("block", ok)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Route("HEAD", "/x", ok, false));
    }

    @Test
    void aParameterMatchesOneWholeSegmentAndALiteralBeatsIt() {
        Route user = Route.get("/users/{id}", ok);
        Route me = Route.get("/users/me", ok);
        Route overview = Route.get("/users/{id}/overview", ok);
        Route teamUser = Route.get("/teams/{team}/users/{id}", ok);
        Route api = Route.get("/users/*", ok);
        Router r = Router.of(List.of(user, me, overview, teamUser, api));

        var found = assertInstanceOf(RouteMatch.Found.class, r.match("GET", "/users/7"));
        assertSame(user, found.route());
        assertEquals(java.util.Map.of("id", "7"), found.params());
        assertSame(me, assertInstanceOf(RouteMatch.Found.class, r.match("GET", "/users/me")).route(), "a literal beats a parameter");
        assertEquals(java.util.Map.of(), assertInstanceOf(RouteMatch.Found.class, r.match("GET", "/users/me")).params());
        assertSame(overview, assertInstanceOf(RouteMatch.Found.class, r.match("GET", "/users/me/overview")).route());
        assertEquals(java.util.Map.of("team", "red", "id", "a b"),
                assertInstanceOf(RouteMatch.Found.class, r.match("GET", "/teams/red/users/a b")).params());
        assertSame(api, assertInstanceOf(RouteMatch.Found.class, r.match("GET", "/users/7/orders")).route(),
                "a path no pattern matches exactly goes to the prefix");
        assertSame(api, assertInstanceOf(RouteMatch.Found.class, r.match("GET", "/users/")).route(), "a parameter is never empty");
        assertInstanceOf(RouteMatch.NotFound.class, r.match("GET", "/teams/red/users"));
        assertEquals("GET, HEAD, OPTIONS", assertInstanceOf(RouteMatch.MethodNotAllowed.class, r.match("POST", "/users/7")).allow());
    }

    @Test
    void patternsThatMatchTheSamePathsAreRefused() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> Router.of(List.of(Route.get("/users/{id}", ok), Route.get("/users/{name}", ok))));
        assertEquals("routes /users/{id} and /users/{name} match the same paths", e.getMessage());
        Router.of(List.of(Route.get("/users/{id}", ok), Route.get("/{kind}/7", ok)));   // /users/7: the literal first segment decides
    }

    @Test
    void aPatternIsCheckedWhenItIsMade() {
        assertEquals(List.of("team", "id"), PathPattern.of("/teams/{team}/users/{id}").parameters());
        assertTrue(PathPattern.of("/users").isLiteral());
        assertEquals("names '{id}' twice", assertThrows(IllegalArgumentException.class, () -> PathPattern.of("/a/{id}/{id}")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> PathPattern.of("/a/{1x}"));
        assertThrows(IllegalArgumentException.class, () -> PathPattern.of("/a/{query}"));
        assertThrows(IllegalArgumentException.class, () -> PathPattern.of("/a/b{id}"));
        assertThrows(IllegalArgumentException.class, () -> PathPattern.of("/a//b"));
        assertThrows(IllegalArgumentException.class, () -> PathPattern.of("/a/*/b"));
    }
}
