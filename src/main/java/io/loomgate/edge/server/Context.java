package io.loomgate.edge.server;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** One context of a server: a path prefix, its handler, its filters and its authenticator, as the API defines them. */
final class Context extends HttpContext {

    private final String path;
    private final HttpServer server;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private final List<Filter> filters = new CopyOnWriteArrayList<>();
    private volatile HttpHandler handler;
    private volatile Authenticator authenticator;

    Context(String path, HttpHandler handler, HttpServer server) {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("a context path must start with '/': " + path);
        }
        this.path = path;
        this.handler = handler;
        this.server = server;
    }

    @Override
    public HttpHandler getHandler() {
        return handler;
    }

    @Override
    public void setHandler(HttpHandler handler) {
        if (handler == null) {
            throw new NullPointerException("null handler");
        }
        if (this.handler != null) {
            throw new IllegalArgumentException("handler already set");
        }
        this.handler = handler;
    }

    @Override
    public String getPath() {
        return path;
    }

    @Override
    public HttpServer getServer() {
        return server;
    }

    @Override
    public Map<String, Object> getAttributes() {
        return attributes;
    }

    @Override
    public List<Filter> getFilters() {
        return filters;
    }

    @Override
    public Authenticator setAuthenticator(Authenticator auth) {
        Authenticator old = authenticator;
        authenticator = auth;
        return old;
    }

    @Override
    public Authenticator getAuthenticator() {
        return authenticator;
    }
}
