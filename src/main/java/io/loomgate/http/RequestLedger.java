package io.loomgate.http;

import java.util.concurrent.atomic.LongAdder;

/**
 * What one request's work adds up to, written by whoever does it and read by the pipeline when the
 * request is over (the access log): the time its upstream calls took, the trace it was sent with,
 * and why its work stopped early, if it did. Safe to add to from the request's subtasks (a lock held
 * for a map's get or put; a virtual thread waiting on it does not pin its carrier).
 */
public final class RequestLedger {

    private final LongAdder upstreamNanos = new LongAdder();
    private volatile String traceId = "";
    private volatile io.loomgate.trace.TraceRoot root;

    private final java.util.concurrent.atomic.AtomicReference<StopReason> stop = new java.util.concurrent.atomic.AtomicReference<>();

    /**
     * The request's work is being stopped, for {@code reason}; the first reason recorded is the one
     * kept (a deadline that passes while the client hangs up is one or the other, never both).
     *
     * @return whether this reason was the first
     */
    public boolean stopped(StopReason reason) {
        return stop.compareAndSet(null, reason);
    }

    /** Why the request's work was stopped, if it was. */
    public java.util.Optional<StopReason> stopReason() {
        return java.util.Optional.ofNullable(stop.get());
    }

    /** The request's place in a trace, when loomgate traces ({@code --otlp-endpoint}). */
    public void root(io.loomgate.trace.TraceRoot root) {
        this.root = root;
    }

    /** Its place in a trace, or null when loomgate does not trace. */
    public io.loomgate.trace.TraceRoot root() {
        return root;
    }

    /** Made on first use, as the next two are: most requests touch one upstream, many none. */
    private java.util.Map<String, java.util.Set<String>> touched;

    /**
     * The endpoints of {@code upstream} this request has sent a try to (running or ended): its next
     * try, a retry or a hedge, goes to another one while there is another.
     */
    public synchronized java.util.Set<String> touched(String upstream) {
        if (touched == null) {
            touched = new java.util.HashMap<>(4);
        }
        return touched.computeIfAbsent(upstream, k -> java.util.concurrent.ConcurrentHashMap.newKeySet());
    }

    /** A proxied exchange as the access log tells it: the endpoint of its last try, the upstream's status, how many tries. */
    public record Proxied(String endpoint, int status, int tries) {
    }

    private volatile Proxied proxied;
    /**
     * The endpoint each try went to, the newest first: one entry for most requests, one a try for the
     * rest (so bounded by the request's tries). Written under the lock, read without it: the access
     * log's read comes once a request, after its tries.
     */
    private record Try(String upstream, String endpoint, Try earlier) {
    }

    private volatile Try lastTry;

    /** The request sent a try to {@code endpoint} of {@code upstream}: the last one is what the log names. */
    public synchronized void tried(String upstream, String endpoint) {
        lastTry = new Try(upstream, endpoint, lastTry);
    }

    /** The endpoint of {@code upstream} the request's last try went to. */
    public java.util.Optional<String> lastTried(String upstream) {
        for (Try t = lastTry; t != null; t = t.earlier()) {
            if (t.upstream().equals(upstream)) {
                return java.util.Optional.of(t.endpoint());
            }
        }
        return java.util.Optional.empty();
    }

    /** The request was proxied, as {@code p} says. */
    public void proxied(Proxied p) {
        this.proxied = p;
    }

    public java.util.Optional<Proxied> proxied() {
        return java.util.Optional.ofNullable(proxied);
    }

    private java.util.List<String> cacheStatuses;

    /** A call to {@code upstream} went through its cache and was served as {@code status} (RFC 9211's words: {@code hit}, {@code fwd=miss; stored}). */
    public void cacheStatus(String upstream, String status) {
        String member = "loomgate/" + upstream + "; " + status;
        synchronized (this) {
            if (cacheStatuses == null) {
                cacheStatuses = new java.util.ArrayList<>(2);
            }
            cacheStatuses.add(member);
        }
    }

    /** How each call through a cache was served, one {@code Cache-Status} member each, in the order they ended. */
    public synchronized java.util.List<String> cacheStatuses() {
        return cacheStatuses == null ? java.util.List.of() : java.util.List.copyOf(cacheStatuses);
    }

    /** One upstream call (however many tries it took) ran {@code nanos}. */
    public void upstream(long nanos) {
        upstreamNanos.add(nanos);
    }

    /** The sum of its upstream calls' times: calls that ran side by side each count. */
    public long upstreamNanos() {
        return upstreamNanos.sum();
    }

    /** The trace id its upstreams were sent, once it has one. */
    public void traceId(String id) {
        this.traceId = id;
    }

    /** The trace id, or empty when no upstream was sent one. */
    public String traceId() {
        return traceId;
    }
}
