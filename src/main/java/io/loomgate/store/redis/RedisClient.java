package io.loomgate.store.redis;

import io.loomgate.config.RedisOptions;
import io.loomgate.edge.tls.ClientTls;
import io.loomgate.observe.histogram.Histogram;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A Redis client for loomgate's own few commands: a pool of up to {@value #POOL} connections, a
 * deadline on every command ({@code --redis-timeout}) that covers waiting for a connection, a
 * breaker that stops asking a Redis that keeps failing ({@link StoreBreaker}), and Lua scripts run
 * by digest ({@code EVALSHA}), sent whole ({@code EVAL}) when Redis answers {@code NOSCRIPT}.
 *
 * <p>Connections are opened on virtual threads of their own, never on a request's: a request waits
 * for a pooled connection only until its deadline, so a Redis that is slow to connect (or a TLS
 * handshake) costs it no more than that. A connection whose command failed in any way is closed,
 * never reused; one that failed with an I/O error also closes the idle ones, which the same restart
 * or network fault has most likely broken too.
 */
public final class RedisClient implements AutoCloseable {

    /** The most connections held at once. */
    public static final int POOL = 16;
    private static final Duration CONNECT_LIMIT = Duration.ofSeconds(2);
    private static final System.Logger LOG = System.getLogger("loomgate");

    private final RedisOptions options;
    private final Optional<ClientTls> tls;
    private final Resp resp = new Resp(64 * 1024);
    private final LinkedBlockingDeque<RedisConnection> idle = new LinkedBlockingDeque<>();
    private final AtomicInteger open = new AtomicInteger();
    private final StoreBreaker breaker;
    private final Histogram latency = new Histogram();
    private final LongAdder ok = new LongAdder();
    private final Map<StoreException.Kind, LongAdder> failures = new EnumMap<>(StoreException.Kind.class);
    private final LongAdder scriptLoads = new LongAdder();
    private volatile String lastConnectFailure = "";
    private final java.util.concurrent.atomic.AtomicLong connectFailures = new java.util.concurrent.atomic.AtomicLong();
    /** How often a request waiting for a connection looks whether the one being opened failed. */
    private static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private volatile boolean closed;

    /** @param tls how {@code rediss://} is checked; empty for {@code redis://} */
    public RedisClient(RedisOptions options, Optional<ClientTls> tls) {
        this.options = options;
        this.tls = tls;
        for (StoreException.Kind k : StoreException.Kind.values()) {
            failures.put(k, new LongAdder());
        }
        this.breaker = new StoreBreaker(3, Duration.ofSeconds(1), System::nanoTime, this::changed);
    }

    /** Runs one command within the deadline. */
    public Reply call(String... command) throws StoreException {
        return run((c, deadline) -> c.call(deadline, Resp.args(command)));
    }

    /** Runs {@code script} with its digest, and whole when Redis does not have it ({@code NOSCRIPT}: a restart or {@code SCRIPT FLUSH}). */
    public Reply eval(LuaScript script, List<String> keys, List<String> args) throws StoreException {
        return run((c, deadline) -> {
            Reply r = c.call(deadline, script.command("EVALSHA", keys, args));
            if (r instanceof Reply.Error e && e.code().equals("NOSCRIPT")) {
                scriptLoads.increment();
                r = c.call(deadline, script.command("EVAL", keys, args));   // EVAL also loads it for the next EVALSHA
            }
            return r;
        });
    }

    /** A command on a connection. */
    @FunctionalInterface
    private interface Command {
        Reply on(RedisConnection c, long deadlineNanos) throws IOException;
    }

    private Reply run(Command command) throws StoreException {
        long started = System.nanoTime();
        long deadline = started + options.timeout().toNanos();
        boolean probe;
        try {
            probe = breaker.admit();
        } catch (StoreException open) {
            failures.get(StoreException.Kind.OPEN).increment();
            throw open;
        }
        RedisConnection c = null;
        try {
            c = take(deadline);
            Reply r = command.on(c, deadline).ok();
            idle.offerFirst(c);   // the most recently used first: a few connections stay warm
            c = null;
            breaker.succeeded(probe);
            ok.increment();
            latency.record(System.nanoTime() - started);
            return r;
        } catch (StoreException e) {
            if (e.kind() == StoreException.Kind.ERROR && c != null) {
                idle.offerFirst(c);   // Redis answered: the connection is fine
                c = null;
            }
            throw failed(e, probe);
        } catch (Resp.MalformedReply e) {
            throw failed(new StoreException(StoreException.Kind.MALFORMED, "a malformed reply from Redis: " + e.getMessage()), probe);
        } catch (InterruptedIOException e) {
            throw failed(new StoreException(StoreException.Kind.TIMEOUT, "no reply from Redis within " + millis(options.timeout())), probe);
        } catch (IOException e) {
            closeIdle();
            throw failed(new StoreException(StoreException.Kind.UNAVAILABLE, "Redis: " + e.getMessage()), probe);
        } finally {
            if (c != null) {
                discard(c);
            }
        }
    }

    private StoreException failed(StoreException e, boolean probe) {
        failures.get(e.kind()).increment();
        breaker.failed(probe, e.getMessage());
        return e;
    }

    /** A pooled connection, waiting until {@code deadline} for one; a new one is opened meanwhile if the pool has room. */
    private RedisConnection take(long deadline) throws IOException {
        RedisConnection c = idle.pollFirst();
        if (c != null) {
            return c;
        }
        if (open.incrementAndGet() <= POOL && !closed) {
            Thread.ofVirtual().name("redis-connect").start(this::openOne);
        } else {
            open.decrementAndGet();
        }
        long failedBefore = connectFailures.get();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new java.net.SocketTimeoutException("no Redis connection free within the deadline");
            }
            try {
                c = idle.pollFirst(Math.min(left, SLICE_NANOS), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a Redis connection");
            }
            if (c != null) {
                return c;
            }
            if (connectFailures.get() != failedBefore) {   // the connection being opened for us failed: no use waiting on
                throw new IOException("cannot connect to " + options.display() + " (" + lastConnectFailure + ")");
            }
        }
    }

    private void openOne() {
        try {
            RedisConnection c = RedisConnection.open(options, tls, resp, System.nanoTime() + CONNECT_LIMIT.toNanos());
            if (closed) {
                c.close();
                open.decrementAndGet();
            } else {
                idle.offerLast(c);
            }
        } catch (IOException | StoreException | RuntimeException e) {
            open.decrementAndGet();
            lastConnectFailure = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            connectFailures.incrementAndGet();
        }
    }

    private void discard(RedisConnection c) {
        c.close();
        open.decrementAndGet();
    }

    private void closeIdle() {
        RedisConnection c;
        while ((c = idle.pollFirst()) != null) {
            discard(c);
        }
    }

    /** Logs a change of state once: failing, and answering again (not each probe in between). */
    private void changed(StoreBreaker.State from, StoreBreaker.State to, String why) {
        if (from == StoreBreaker.State.CLOSED && to == StoreBreaker.State.OPEN) {
            LOG.log(Level.WARNING, "Redis at " + options.display() + " is failing (" + why + "): shared rate limits fall back as"
                    + " their routes' onStoreError says; asked again once a second");
        } else if (to == StoreBreaker.State.CLOSED) {
            LOG.log(Level.INFO, "Redis at " + options.display() + " answers again: shared rate limits are shared again");
        }
    }

    private static String millis(Duration d) {
        return d.toMillis() + " ms";
    }

    /** What {@code /metrics} and the admin API show. */
    public record Stats(String url, String state, long ok, Map<String, Long> failures, long scriptLoads, int connections,
                        int idle, long opened, io.loomgate.observe.histogram.HistogramSnapshot latency) {

        /** As {@code /metrics?format=json} and {@code GET /admin/store} show it. */
        public void json(io.loomgate.json.JsonWriter w) {
            w.beginObject().field("url", url).field("state", state).field("ok", ok);
            w.name("failures").beginObject();
            failures.forEach(w::field);
            w.endObject();
            w.field("scriptLoads", scriptLoads).field("connections", connections).field("idle", idle).field("breakerOpened", opened)
                    .field("p50Ms", latency.percentileNanos(0.5) / 1e6).field("p99Ms", latency.percentileNanos(0.99) / 1e6).endObject();
        }
    }

    public Stats stats() {
        Map<String, Long> f = new java.util.LinkedHashMap<>();
        failures.forEach((k, v) -> f.put(k.wire(), v.sum()));
        return new Stats(options.display(), breaker.state().wire(), ok.sum(), f, scriptLoads.sum(), Math.max(0, open.get()),
                idle.size(), breaker.opened(), latency.snapshot());
    }

    @Override
    public void close() {
        closed = true;
        closeIdle();
    }
}
