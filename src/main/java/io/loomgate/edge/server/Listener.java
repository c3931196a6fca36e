package io.loomgate.edge.server;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import io.loomgate.net.IoWatchdog;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What an HTTP and an HTTPS server of loomgate's share: the listening socket and the virtual thread
 * that accepts on it, the contexts, the executor, the connections open (bounded in all, and per
 * client address), and {@code stop(delay)} as the API defines it. Each accepted connection gets a
 * virtual thread of its own ({@link Connection}).
 */
final class Listener {

    private static final System.Logger LOG = System.getLogger("loomgate");
    private static final String CONNECTION_THREAD = "loomgate-connection";
    /** Connection threads kept started and parked ({@link Spares}): a burst of wrk's or a browser fleet's new connections. */
    static final int SPARES = 256;

    private final HttpServer server;
    private final ServerLimits limits;
    private final ServerStats stats;
    private final Contexts contexts = new Contexts();
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    /** The connections among them that speak HTTP/2, told to go away when the server stops. */
    final Set<H2Connection> h2 = ConcurrentHashMap.newKeySet();
    private final Map<InetAddress, AtomicInteger> perAddress = new ConcurrentHashMap<>();
    private final AtomicInteger exchanges = new AtomicInteger();
    private final IoWatchdog watchdog = new IoWatchdog();
    private final Spares spares;
    private volatile Executor executor;
    private volatile HttpsConfigurator configurator;
    private volatile boolean stopping;
    private ServerSocket socket;
    private Thread acceptor;

    private final boolean tls;

    Listener(HttpServer server, ServerLimits limits, ServerStats stats, boolean tls) {
        this.server = server;
        this.tls = tls;
        this.limits = limits;
        this.stats = stats;
        this.spares = new Spares(SPARES, Thread.ofVirtual().name(CONNECTION_THREAD).factory(), stats.threadsStarted);
    }

    synchronized void bind(InetSocketAddress address, int backlog) throws IOException {
        if (socket != null) {
            throw new BindException("the server is bound already");
        }
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            s.bind(address == null ? new InetSocketAddress(0) : address, backlog > 0 ? backlog : 50);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        socket = s;
    }

    synchronized void start() {
        if (socket == null) {
            throw new IllegalStateException("the server is not bound");
        }
        if (acceptor != null || stopping) {
            throw new IllegalStateException("the server was started already");
        }
        if (tls && configurator == null) {
            throw new IllegalStateException("an HTTPS server needs an HttpsConfigurator before it starts");
        }
        // Accepts on a virtual thread, so that it wakes a spare onto its carrier's own queue (Spares);
        // kept by a platform thread, not a daemon, as the JDK's dispatcher is: a started server keeps the JVM alive.
        acceptor = Thread.ofPlatform().daemon(false).name("loomgate-accept").start(() ->
                joinUninterruptibly(Thread.ofVirtual().name("loomgate-accept").start(this::accept)));
    }

    private void accept() {
        spares.topUp();
        while (!stopping) {
            Socket s;
            try {
                s = socket.accept();
            } catch (IOException e) {
                if (!stopping) {
                    LOG.log(Level.WARNING, "accepting a connection failed: " + e.getMessage());
                    pause();
                }
                continue;
            }
            admit(s);
        }
    }

    /** Starts the connection's thread, unless a limit says to close it at once. */
    private void admit(Socket s) {
        stats.accepted.increment();
        InetAddress from = s.getInetAddress();
        if (limits.maxConnections() > 0 && stats.open.get() + stats.tunnels.get() * ServerLimits.TUNNEL_EXTRA
                + stats.h2Open.get() * ServerLimits.H2_EXTRA >= limits.maxConnections()) {
            stats.refusedAtMax.increment();
            Closing.quietly(s);
            return;
        }
        boolean counted = limits.maxPerAddress() > 0 && !limits.unlimited().contains(from);
        if (counted && perAddress.computeIfAbsent(from, a -> new AtomicInteger()).incrementAndGet() > limits.maxPerAddress()) {
            release(from);
            stats.refusedPerAddress.increment();
            Closing.quietly(s);
            return;
        }
        Connection c = new Connection(this, s, counted);
        stats.open.incrementAndGet();
        connections.add(c);
        try {
            if (!spares.hand(c)) {
                Thread.ofVirtual().name(CONNECTION_THREAD).start(c);
                stats.threadsStarted.increment();
            }
        } catch (RuntimeException | Error e) {
            closed(c);
            Closing.quietly(s);
            throw e;
        }
        spares.topUp();
    }

    /** A connection now carries a tunnel ({@link Connection#becameTunnel}). */
    void tunnelOpened() {
        stats.tunnels.incrementAndGet();
    }

    /** A connection's thread ended. */
    void closed(Connection c) {
        if (connections.remove(c)) {
            stats.open.decrementAndGet();
            if (c.tunnel()) {
                stats.tunnels.decrementAndGet();
            }
            if (c.counted()) {
                release(c.address());
            }
        }
    }

    private void release(InetAddress from) {
        perAddress.computeIfPresent(from, (a, n) -> n.decrementAndGet() <= 0 ? null : n);
    }

    /**
     * Stops as the API says, and as the JDK's server does: no new connection is accepted; the
     * exchanges in progress get up to {@code delay} seconds to finish (the wait ends early once none
     * is left, or if this thread is interrupted), and meanwhile an open connection may still ask
     * (the gateway answers it 503 while draining); then every connection closes.
     */
    void stop(int delay) {
        if (delay < 0) {
            throw new IllegalArgumentException("negative delay: " + delay);
        }
        synchronized (this) {
            stopping = true;
            Closing.quietly(socket);
        }
        spares.close();
        h2.forEach(H2Connection::goAway);   // HTTP/2 says so at once, then answers the streams it has
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(delay);
        try {
            while (exchanges.get() > 0 && System.nanoTime() - deadline < 0) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connections.forEach(Connection::close);
        Thread a = acceptor;
        if (a != null) {
            try {
                a.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        watchdog.close();
    }

    private static void joinUninterruptibly(Thread thread) {
        while (true) {
            try {
                thread.join();
                return;
            } catch (InterruptedException e) {
                // the keeper lives as long as the accepting thread does
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(10);   // out of file descriptors, say: let some close before trying again
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    boolean stopping() {
        return stopping;
    }

    void exchangeStarted() {
        exchanges.incrementAndGet();
    }

    void exchangeEnded() {
        exchanges.decrementAndGet();
    }

    /** The connections open now. */
    java.util.List<Connection> openConnections() {
        return java.util.List.copyOf(connections);
    }

    HttpServer server() {
        return server;
    }

    ServerLimits limits() {
        return limits;
    }

    ServerStats stats() {
        return stats;
    }

    IoWatchdog watchdog() {
        return watchdog;
    }

    Contexts contexts() {
        return contexts;
    }

    HttpContext createContext(String path, HttpHandler handler) {
        return contexts.add(new Context(path, handler, server));
    }

    void setExecutor(Executor executor) {
        if (acceptor != null) {
            throw new IllegalStateException("the server was started already");
        }
        this.executor = executor;
    }

    Executor executor() {
        return executor;
    }

    void configurator(HttpsConfigurator configurator) {
        this.configurator = configurator;
    }

    HttpsConfigurator configurator() {
        return configurator;
    }

    boolean tls() {
        return tls;
    }

    synchronized InetSocketAddress address() {
        return socket == null ? null : (InetSocketAddress) socket.getLocalSocketAddress();
    }
}
