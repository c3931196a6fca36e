package io.loomgate.client;

import io.loomgate.http1.HeadLimits;
import io.loomgate.net.IoWatchdog;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small, strict HTTP/1.1 client on blocking sockets, for virtual threads: each exchange runs on
 * the calling thread, and keep-alive connections are pooled per host and port, most recently used
 * first. {@code http://} and {@code https://}, no redirects; an origin that speaks HTTP/2 goes to
 * {@link H2Client} (streams on shared connections) from the same {@link #send}. Measured against the JDK's
 * {@code HttpClient} in docs/performance.md. A request body goes out on a {@link BodySender} while
 * the answer's head is awaited, so an upstream's early answer is read.
 *
 * <p>A connection goes back to the pool only after an exchange whose framing was unambiguous and
 * fully read, with not one byte left over, and only if the upstream keeps it open; before it is
 * reused it is probed for a close or stray bytes that came while it waited. A request is sent a
 * second time, on a new connection, only when it is idempotent and has no body, the first try was
 * on a reused connection, and not one byte of an answer came back.
 *
 * <pre>{@code
 * try (UpstreamResponse r = client.send(OutgoingRequest.get(origin, "/api/data", List.of()), deadline, idle)) {
 *     byte[] body = r.body().readAllBytes();   // read to the end: the connection may be pooled
 * }
 * }</pre>
 */
public final class Http1Client implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("loomgate");
    /** Idle connections older than this are closed rather than reused. */
    static final Duration MAX_IDLE = Duration.ofSeconds(20);
    /** Reuse stops this long before an upstream's own {@code Keep-Alive: timeout} runs out. */
    private static final long KEEP_ALIVE_MARGIN_NANOS = Duration.ofSeconds(1).toNanos();
    private static final int MAX_IDLE_PER_HOST = 4096;

    /** Pool keys whose address went away: their connections are closed, not pooled. */
    private final java.util.Set<String> retired = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final int connectTimeoutMs;
    private final IoWatchdog watchdog = new IoWatchdog();
    private final Map<String, Pool> idle = new ConcurrentHashMap<>();
    private final H2Client h2;
    private final Map<String, OriginStats.Counts> counts = new ConcurrentHashMap<>();
    private volatile boolean closed;

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

    public Http1Client(Duration connectTimeout) {
        this.connectTimeoutMs = (int) connectTimeout.toMillis();
        this.h2 = new H2Client(connectTimeoutMs, watchdog, this::counts);
    }

    /**
     * Sends {@code request} and reads the response head; the body is left to the caller to read
     * (or close).
     *
     * @param deadlineNanos reads wait until this {@link System#nanoTime()}; the head must come by then
     * @param idle          the longest any one read or write may wait
     * @throws MalformedResponse when the answer breaks HTTP/1.1's rules
     * @throws java.io.InterruptedIOException when the thread was interrupted (the connection is closed)
     */
    public UpstreamResponse send(OutgoingRequest request, long deadlineNanos, Duration idle) throws IOException {
        return send(request, deadlineNanos, idle, Duration.ZERO);
    }

    /**
     * The same; a request with a body is sent by a {@link BodySender} while the head is awaited, and
     * the head is then due within {@code afterBody} of the body's end if that is later than the deadline.
     */
    public UpstreamResponse send(OutgoingRequest request, long deadlineNanos, Duration idle, Duration afterBody) throws IOException {
        Origin origin = request.origin();
        if (origin.protocol() == Origin.Protocol.H2 || origin.protocol() == Origin.Protocol.H2C) {
            return h2.send(request, deadlineNanos, idle, afterBody);
        }
        Http1Connection chosen = null;
        if (origin.protocol() == Origin.Protocol.AUTO && !request.upgrade() && !h2.choseHttp1(origin.key())) {
            try {
                return h2.send(request, deadlineNanos, idle, afterBody);
            } catch (H2Client.NotChosen e) {
                chosen = e.connection();   // the upstream's ALPN chose HTTP/1.1 (remembered): this request, not yet sent, goes on that connection
            }
        }
        boolean close = request.closesConnection();
        for (int attempt = 0; ; attempt++) {
            Http1Connection c = attempt == 0 ? (chosen != null ? chosen : take(origin.key(), request.replayable())) : null;
            if (c == null) {
                c = Http1Dial.open(origin, connectTimeoutMs, watchdog);
                counts(origin.key()).http1Opened.increment();
            }
            c.begin(deadlineNanos, idle);
            BodySender sender = BodySender.NONE;
            try {
                if (request.body() == null) {
                    c.send(request, close);
                } else {
                    sender = BodySender.start(c, request, close, afterBody);
                }
                HeadLimits budget = HeadLimits.forResponse();
                ResponseHead head = readHead(c, budget, request, sender);
                boolean early = !sender.answered();   // the answer came before the whole body went: never reused
                // After a 101 the connection carries the new protocol's bytes, both ways, until either side closes.
                Framing framing = head.status() == 101 ? new Framing(Framing.Kind.UNTIL_CLOSE, -1, false)
                        : Framing.of(request.method(), head);
                keepAliveHint(c, head);
                boolean reusable = framing.persistent() && !close && !early;
                return new UpstreamResponse(head, framing, Http1Body.open(c, framing, reusable, budget, this::finished), sender);
            } catch (IOException | RuntimeException e) {
                c.close();
                if (sender != BodySender.NONE) {
                    sender.abandon();   // the client's body is the server's again before the failure is answered
                }
                if (!(attempt == 0 && staleConnection(c, request, e))) {
                    throw e;
                }
                LOG.log(Level.DEBUG, () -> origin.key() + ": a reused connection failed before any answer (" + e
                        + "); " + request.method() + " sent again on a new connection");
            }
        }
    }

    /** The answer's head; when it cannot come, the body's own failure if that is what ended it. */
    private static ResponseHead readHead(Http1Connection c, HeadLimits budget, OutgoingRequest request, BodySender sender)
            throws IOException {
        try {
            return HeadReader.read(c, budget, request.upgrade(), request.interim());
        } catch (IOException e) {
            if (sender == BodySender.NONE) {
                throw e;
            }
            throw sender.failure(e);
        }
    }

    /** A reused connection the upstream had closed: nothing of an answer came, and the request may be sent again. */
    private static boolean staleConnection(Http1Connection c, OutgoingRequest request, Exception e) {
        return c.reused && c.received() == 0 && request.replayable() && e instanceof IOException
                && !(e instanceof SocketTimeoutException) && !(e instanceof MalformedResponse)
                && !Thread.currentThread().isInterrupted();
    }

    /** {@code Keep-Alive: timeout=5}: the upstream closes idle connections after 5 s; stop reusing this one a second before. */
    private static void keepAliveHint(Http1Connection c, ResponseHead head) {
        for (String param : head.tokens("keep-alive")) {
            if (param.startsWith("timeout=")) {
                try {
                    long seconds = Long.parseLong(param.substring(8).strip());
                    long limit = Duration.ofSeconds(Math.max(0, Math.min(seconds, 3600))).toNanos() - KEEP_ALIVE_MARGIN_NANOS;
                    c.idleLimitNanos = Math.min(MAX_IDLE.toNanos(), limit);
                } catch (NumberFormatException ignored) {
                    // a hint we cannot read is no hint
                }
            }
        }
    }

    /**
     * A pooled connection idle for less than this carries a request that may be sent again (an
     * idempotent one without a body) without {@link Http1Connection#stillIdle}'s look, a system call:
     * if the upstream had closed it, nothing of an answer comes and the request goes again on a new
     * connection ({@link #staleConnection}). Any other request gets a connection that was looked at.
     */
    static final long UNCHECKED_IDLE_NANOS = 20_000_000L;

    /** @param replayable whether the request may be sent again when a reused connection turns out closed */
    private Http1Connection take(String key, boolean replayable) {
        Pool pool = idle.get(key);
        if (pool == null) {
            return null;
        }
        long now = System.nanoTime();
        for (Http1Connection c; (c = pool.poll()) != null; ) {
            long idleFor = now - c.lastUsedNanos;
            if (idleFor < c.idleLimitNanos && (replayable && idleFor < UNCHECKED_IDLE_NANOS && c.isOpen() || c.stillIdle())) {
                c.reused = true;
                return c;
            }
            c.close();
        }
        return null;
    }

    private void finished(Http1Connection c, boolean reusable) {
        if (!reusable || closed || !c.isOpen() || retired.contains(c.key)) {
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

    private OriginStats.Counts counts(String key) {
        return counts.computeIfAbsent(key, k -> new OriginStats.Counts());
    }

    /** Each origin's connections, as {@code /metrics} shows them: every origin called since its address last went away. */
    public java.util.List<OriginStats> stats() {
        return counts.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> {
            OriginStats.Counts c = e.getValue();
            return new OriginStats(e.getKey(), c.http1Opened.sum(), pooled(e.getKey()), c.h2Opened.sum(), h2.open(e.getKey()),
                    h2.streams(e.getKey()), c.h2Resets.sum(), c.h2Refused.sum());
        }).toList();
    }

    /** Idle connections to {@code host:port} now in the pool (for tests). */
    public int pooled(String key) {
        Pool pool = idle.get(key);
        return pool == null ? 0 : pool.size().get();
    }

    /**
     * {@code key}'s address went away (its name no longer resolves to it): its idle connections
     * close now, and those in use when their exchange ends, until {@link #unretire}.
     */
    public void retire(String key) {
        retired.add(key);
        closeIdle(key);
        counts.remove(key);   // its counters go with it: addresses come and go, and the map stays bounded
    }

    /** {@code key}'s address is back: its connections are pooled again. */
    public void unretire(String key) {
        retired.remove(key);
    }

    /** Closes the idle connections to {@code key}; one in use goes back to the pool when its exchange ends. */
    public void closeIdle(String key) {
        h2.closeIdle(key);
        Pool pool = idle.get(key);
        if (pool != null) {
            for (Http1Connection c; (c = pool.poll()) != null; ) {
                c.close();
            }
        }
    }

    /** Closes the pooled connections; exchanges in progress close theirs when they end. */
    @Override
    public void close() {
        closed = true;
        h2.close();
        watchdog.close();
        idle.values().forEach(pool -> {
            for (Http1Connection c; (c = pool.poll()) != null; ) {
                c.close();
            }
        });
    }
}
