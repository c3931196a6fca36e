package io.loomgate.edge.server;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;

/** loomgate's HTTP server, as the API shows it; the work is the {@link Listener}'s. */
final class PlainServer extends HttpServer {

    private final Listener listener;

    PlainServer(ServerLimits limits, ServerStats stats) {
        this.listener = new Listener(this, limits, stats, false);
    }

    /** Its listener: for tests that look at its connections. */
    Listener listener() {
        return listener;
    }

    @Override
    public void bind(InetSocketAddress addr, int backlog) throws IOException {
        listener.bind(addr, backlog);
    }

    @Override
    public void start() {
        listener.start();
    }

    @Override
    public void setExecutor(Executor executor) {
        listener.setExecutor(executor);
    }

    @Override
    public Executor getExecutor() {
        return listener.executor();
    }

    @Override
    public void stop(int delay) {
        listener.stop(delay);
    }

    @Override
    public HttpContext createContext(String path, HttpHandler handler) {
        return listener.createContext(path, handler);
    }

    @Override
    public HttpContext createContext(String path) {
        return listener.createContext(path, null);
    }

    @Override
    public void removeContext(String path) {
        listener.contexts().remove(path);
    }

    @Override
    public void removeContext(HttpContext context) {
        listener.contexts().remove(context);
    }

    @Override
    public InetSocketAddress getAddress() {
        return listener.address();
    }
}
