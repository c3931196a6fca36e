package io.loomgate.module;

/**
 * A route file loomgate cannot start with. The message is one line that names the file, the JSON
 * path and the problem: {@code routes.json: routes[2].policy must be one of single, all, any,
 * fallback; got 'al'}.
 */
public final class RouteFileException extends Exception {

    public RouteFileException(String message) {
        super(message, null, false, false);
    }
}
