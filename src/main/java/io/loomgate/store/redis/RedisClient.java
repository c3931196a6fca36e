package io.loomgate.store.redis;

import io.loomgate.config.RedisOptions;
import io.loomgate.tls.ClientTls;
import io.loomgate.observe.histogram.Histogram;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A Redis client for loomgate's own few commands: {@value #CONNECTIONS} connections shared by every
 * request, each carrying many commands at once ({@link RedisConnection}); a deadline on every
 * command ({@code --redis-timeout}), waiting for a connection included; a breaker that stops asking
 * a Redis that keeps failing ({@link StoreBreaker}); and Lua scripts run by digest
 * ({@code EVALSHA}), sent whole ({@code EVAL}) when Redis answers {@code NOSCRIPT}.
 *
 * <p>Connections are opened on virtual threads of their own, never on a request's: a request waits
 * for one only until its deadline, so a Redis slow to accept (or a TLS handshake) costs it no more
 * than that. A command whose deadline passes leaves its connection in use (its late reply is read
 * and dropped); a connection on which Redis has answered nothing for {@link #STALLED} is closed, and
 * one that broke (a malformed reply, a reset) is never used again.
 */
public final class RedisClient implements AutoCloseable {

    /** Connections held at once: each carries thousands of commands in flight, so a few suffice. */
    public static final int CONNECTIONS = 2;
    /** How long a connection may go without any reply while commands wait, before it is taken for dead. */
    static final Duration STALLED = Duration.ofSeconds(1);
    private static final Duration CONNECT_LIMIT = Duration.ofSeconds(2);
    private static final System.Logger LOG = System.getLogger("loomgate");

    private final RedisOptions options;
    private final Optional<ClientTls> tls;
    private final Resp resp = new Resp(64 * 1024);
    private final CopyOnWriteArrayList<RedisConnection> live = new CopyOnWriteArrayList<>();
    private final AtomicInteger opening = new AtomicInteger();
    private final AtomicInteger next = new AtomicInteger();
    private final ReentrantLock arrivals = new ReentrantLock();
    private final Condition arrived = arrivals.newCondition();
    private final StoreBreaker breaker;
    private final Histogram latency = new Histogram();
    private final LongAdder ok = new LongAdder();
    private final Map<StoreException.Kind, LongAdder> failures = new EnumMap<>(StoreException.Kind.class);
    private final LongAdder scriptLoads = new LongAdder();
    private final AtomicLong connectFailures = new AtomicLong();
    private volatile String lastConnectFailure = "";
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
        return run((c, deadline) -> await(c, c.send(Resp.args(command)), deadline));
    }

    /** Runs {@code script} by its digest, and whole when Redis does not have it ({@code NOSCRIPT}: a restart or {@code SCRIPT FLUSH}). */
    public Reply eval(LuaScript script, List<String> keys, List<String> args) throws StoreException {
        return run((c, deadline) -> {
            Reply r = await(c, c.send(script.command("EVALSHA", keys, args)), deadline);
            if (r instanceof Reply.Error e && e.code().equals("NOSCRIPT")) {
                scriptLoads.increment();
                r = await(c, c.send(script.command("EVAL", keys, args)), deadline);   // EVAL also loads it for the next EVALSHA
            }
            return r;
        });
    }

    /** Commands on a connection, before a deadline. */
    @FunctionalInterface
    private interface Command {
        Reply on(RedisConnection c, long deadlineNanos) throws IOException, TimeoutException, InterruptedException;
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
        try {
            Reply r = command.on(take(deadline), deadline).ok();
            breaker.succeeded(probe);
            ok.increment();
            latency.record(System.nanoTime() - started);
            return r;
        } catch (StoreException e) {
            throw failed(e, probe);
        } catch (Resp.MalformedReply e) {
            throw failed(new StoreException(StoreException.Kind.MALFORMED, "a malformed reply from Redis: " + e.getMessage()), probe);
        } catch (TimeoutException | java.net.SocketTimeoutException e) {
            throw failed(new StoreException(StoreException.Kind.TIMEOUT, "no reply from Redis within " + options.timeout().toMillis()
                    + " ms"), probe);
        } catch (InterruptedException | java.io.InterruptedIOException e) {
            Thread.currentThread().interrupt();   // the request is being cancelled: not Redis's failure
            breaker.cancelled(probe);
            throw new StoreException(StoreException.Kind.TIMEOUT, "interrupted while waiting for Redis");
        } catch (IOException e) {
            throw failed(new StoreException(StoreException.Kind.UNAVAILABLE, "Redis: " + e.getMessage()), probe);
        }
    }

    /** The reply, by the deadline; a connection with no reply at all for {@link #STALLED} is closed. */
    private static Reply await(RedisConnection c, CompletableFuture<Reply> reply, long deadline)
            throws IOException, TimeoutException, InterruptedException {
        try {
            return reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (TimeoutException e) {
            if (c.oldestWaitNanos() > STALLED.toNanos()) {
                c.abandon("Redis answered nothing on this connection for " + STALLED.toMillis() + " ms");
            }
            throw e;
        }
    }

    private StoreException failed(StoreException e, boolean probe) {
        failures.get(e.kind()).increment();
        breaker.failed(probe, e.getMessage());
        return e;
    }

    /** Opens the connections in the background, if they are not open or being opened; returns at once. */
    public void connect() {
        live.removeIf(c -> !c.usable());
        while (!closed) {
            int o = opening.get();
            if (live.size() + o >= CONNECTIONS) {
                return;
            }
            if (opening.compareAndSet(o, o + 1)) {
                Thread.ofVirtual().name("redis-connect").start(this::openOne);
            }
        }
    }

    /** A usable connection ({@link #usable}), waiting until {@code deadline} for one to be opened when there is none. */
    private RedisConnection take(long deadline) throws IOException {
        long failedBefore = connectFailures.get();
        while (true) {
            RedisConnection c = usable();
            if (c != null) {
                return c;
            }
            if (connectFailures.get() != failedBefore) {
                throw new IOException("cannot connect to " + options.display() + " (" + lastConnectFailure + ")");
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new java.net.SocketTimeoutException("no Redis connection within the deadline");
            }
            arrivals.lock();
            try {
                if (live.isEmpty() && connectFailures.get() == failedBefore) {
                    arrived.awaitNanos(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while waiting for a Redis connection");
            } finally {
                arrivals.unlock();
            }
        }
    }

    /**
     * A usable connection, in turn, or null; when some are missing or broken, replacements are
     * started. Reads the list without its lock: this runs on every request.
     */
    private RedisConnection usable() {
        RedisConnection[] ok = new RedisConnection[CONNECTIONS];
        int n = 0;
        for (RedisConnection c : live) {
            if (c.usable() && n < ok.length) {
                ok[n++] = c;
            }
        }
        if (n < CONNECTIONS) {
            connect();
        }
        return n == 0 ? null : ok[Math.floorMod(next.getAndIncrement(), n)];
    }

    private void openOne() {
        try {
            RedisConnection c = RedisConnection.open(options, tls, resp, System.nanoTime() + CONNECT_LIMIT.toNanos());
            if (closed) {
                c.close();
            } else {
                live.add(c);
            }
        } catch (IOException | StoreException | RuntimeException e) {
            lastConnectFailure = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            connectFailures.incrementAndGet();
        } finally {
            opening.decrementAndGet();
            arrivals.lock();
            try {
                arrived.signalAll();
            } finally {
                arrivals.unlock();
            }
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

    /** What {@code /metrics} and the admin API show. */
    public RedisStats stats() {
        Map<String, Long> f = new java.util.LinkedHashMap<>();
        failures.forEach((k, v) -> f.put(k.wire(), v.sum()));
        return new RedisStats(options.display(), breaker.state().wire(), ok.sum(), f, scriptLoads.sum(),
                (int) live.stream().filter(RedisConnection::usable).count(), breaker.opened(), latency.snapshot());
    }

    @Override
    public void close() {
        closed = true;
        live.forEach(RedisConnection::close);
        live.clear();
    }
}
