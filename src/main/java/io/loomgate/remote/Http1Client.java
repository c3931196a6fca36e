package io.loomgate.remote;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTP/1.1 client on blocking sockets, for virtual threads: each exchange runs on the
 * calling thread, and keep-alive connections are pooled per host and port, most recently used
 * first. It does what loomgate needs and no more: {@code http://} only, no redirects, no HTTP/2.
 * Measured against the JDK's {@code HttpClient} in the README (Performance).
 *
 * <pre>{@code
 * try (Http1Response r = client.send(OutgoingRequest.get(origin, "/api/data", List.of()), System.nanoTime() + timeoutNanos)) {
 *     byte[] body = r.body().readAllBytes();   // read to the end: the connection goes back to the pool
 * }
 * }</pre>
 */
final class Http1Client implements AutoCloseable {

    private static final long IDLE_NANOS = Duration.ofSeconds(20).toNanos();
    private static final int MAX_IDLE_PER_HOST = 4096;

    private final int connectTimeoutMs;
    private final Map<String, Pool> idle = new ConcurrentHashMap<>();

    /** One host's idle connections, most recently used first, and how many there are (a deque's size() walks it). */
    private record Pool(Deque<Http1Connection> connections, AtomicInteger size) {
        Pool() {
            this(new ConcurrentLinkedDeque<>(), new AtomicInteger());
        }

        Http1Connection poll() {
            Http1Connection c = connections.pollFirst();
            if (c != null) {
                size.decrementAndGet();
            }
            return c;
        }
    }
    private volatile boolean closed;

    Http1Client(Duration connectTimeout) {
        this.connectTimeoutMs = (int) connectTimeout.toMillis();
    }

    /**
     * Sends {@code request} and reads the response head; the body is left to the caller to read
     * (or close). A pooled connection the upstream had already closed is replaced once, for a
     * request without a body.
     *
     * @param deadlineNanos reads wait until this {@link System#nanoTime()}; the head must come by then
     * @throws java.io.InterruptedIOException when the thread was interrupted (the connection is closed)
     */
    Http1Response send(OutgoingRequest request, long deadlineNanos) throws IOException {
        Origin origin = request.origin();
        for (int attempt = 0; ; attempt++) {
            Http1Connection c = take(origin.key());
            if (c == null) {
                c = Http1Connection.open(origin.host(), origin.port(), origin.key(), connectTimeoutMs);
            }
            c.deadline(deadlineNanos);
            try {
                c.send(request);
                Http1Connection.Head head = c.readHead();
                return new Http1Response(head.status(), head.headers(), Http1Body.of(c, head, request.method(), this::finished));
            } catch (IOException e) {
                c.close();
                boolean stale = c.reused && (e instanceof EOFException || e instanceof SocketException)
                        && !Thread.currentThread().isInterrupted();
                if (!(stale && attempt == 0 && request.canRetry())) {
                    throw e;
                }
            }
        }
    }

    private Http1Connection take(String key) {
        Pool pool = idle.get(key);
        if (pool == null) {
            return null;
        }
        long now = System.nanoTime();
        for (Http1Connection c; (c = pool.poll()) != null; ) {
            if (now - c.lastUsedNanos < IDLE_NANOS && c.isOpen()) {
                c.reused = true;
                return c;
            }
            c.close();
        }
        return null;
    }

    private void finished(Http1Connection c, boolean reusable) {
        if (!reusable || closed || !c.isOpen()) {
            c.close();
            return;
        }
        Pool pool = idle.computeIfAbsent(c.key, k -> new Pool());
        if (pool.size().incrementAndGet() > MAX_IDLE_PER_HOST) {
            pool.size().decrementAndGet();
            c.close();
            return;
        }
        c.lastUsedNanos = System.nanoTime();
        pool.connections().offerFirst(c);
    }

    /** Closes the pooled connections; exchanges in progress close theirs when they end. */
    @Override
    public void close() {
        closed = true;
        idle.values().forEach(pool -> {
            for (Http1Connection c; (c = pool.poll()) != null; ) {
                c.close();
            }
        });
    }
}
