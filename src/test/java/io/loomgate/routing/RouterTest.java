package io.loomgate.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
