package io.loomgate.edge.routing;

/**
 * What the route table says about a method and path. {@code allow} values are ready for the
 * {@code Allow} header, e.g. {@code GET, HEAD, OPTIONS}.
 */
public sealed interface RouteMatch {

    /** Serve it with {@code route}; {@code params} are the path's parameters ({@code id=7} for {@code /users/{id}}). */
    record Found(Route route, java.util.Map<String, String> params) implements RouteMatch {
    }

    /** The path exists, but not for this method: answer 405 with {@code Allow}. */
    record MethodNotAllowed(String path, String allow) implements RouteMatch {
    }

    /** The path answers OPTIONS with its {@code Allow} header. */
    record Options(String path, String allow) implements RouteMatch {
    }

    /** No such path: answer 404. */
    record NotFound() implements RouteMatch {
    }

    /** A method loomgate does not implement anywhere ({@code BREW}): answer 501. */
    record NotImplemented(String method) implements RouteMatch {
    }
}
