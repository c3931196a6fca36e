package io.loomgate.observe.log;

import io.loomgate.config.AccessLogMode;
import io.loomgate.config.Printable;
import io.loomgate.json.JsonWriter;
import io.loomgate.observe.event.Events;
import io.loomgate.observe.event.RequestSummary;
import java.lang.System.Logger.Level;
import java.time.Instant;

/**
 * {@code --access-log}: one line per request, queued ({@link LogQueue}) so that a request never
 * waits for the log. Two forms:
 * <ul>
 *   <li>{@code text}: {@code GET /block 200 301.2ms id=9c41e2-1}, with {@code client-id=ID} when the
 *       client sent an {@code X-Request-Id} of its own and {@code caller=NAME} when the route
 *       authenticated one; through the {@code loomgate.access} logger (stderr), as always, or
 *       into {@code --access-log-file} after an RFC 3339 time;</li>
 *   <li>{@code json}: one object per line, on stdout or into the file: {@code time}, {@code client},
 *       {@code method}, {@code route}, {@code path}, {@code status}, {@code bytesIn}, {@code bytesOut},
 *       {@code durationMs}, {@code upstreamMs}, {@code requestId}, {@code traceId}, {@code caller},
 *       {@code userAgent}, and {@code reason} for a failure.</li>
 * </ul>
 * Paths and user agents are shortened, and control characters are escaped (JSON) or replaced
 * (text), so a request cannot forge a line.
 */
public final class AccessLog implements Events {

    private static final System.Logger LOG = System.getLogger("loomgate.access");
    private static final int PATH_LIMIT = 200;
    /** RFC 3339 in UTC, always to the millisecond ({@code Instant.toString} drops a zero fraction). */
    private static final java.time.format.DateTimeFormatter TIME =
            java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(java.time.ZoneOffset.UTC);

    private final AccessLogMode mode;
    private final LogQueue queue;
    private final boolean stamped;

    /**
     * @param queue   where lines go
     * @param stamped true when the sink adds no time of its own (a file), so text lines start with one
     */
    public AccessLog(AccessLogMode mode, LogQueue queue, boolean stamped) {
        this.mode = mode;
        this.queue = queue;
        this.stamped = stamped;
    }

    /** The text form through the {@code loomgate.access} logger, as {@code --access-log} wrote it before. */
    public static LogQueue.Sink logger() {
        return line -> LOG.log(Level.INFO, line);
    }

    @Override
    public void requestFinished(RequestSummary s) {
        queue.offer(mode == AccessLogMode.JSON ? json(s, Instant.now()) : stamped ? TIME.format(Instant.now()) + " " + text(s)
                : text(s));
    }

    static String text(RequestSummary s) {
        return String.format("%s %s %d %.1fms id=%s%s%s%s%s", Printable.shorten(s.method(), 16),
                Printable.shorten(s.rawPath(), PATH_LIMIT), s.status(), s.nanos() / 1e6, s.requestId(),
                s.wire().proxied().map(p -> " upstream=" + p.endpoint() + " upstream-status=" + p.status() + " tries=" + p.tries())
                        .orElse(""),
                s.clientId().isEmpty() ? "" : " client-id=" + s.clientId(),
                s.caller().isEmpty() ? "" : " caller=" + Printable.shorten(s.caller(), 64),
                s.cutOff() ? " (cut off: the upstream failed mid-body)" : s.delivered() ? "" : " (client gone)");
    }

    static String json(RequestSummary s, Instant at) {
        RequestSummary.Wire wire = s.wire();
        JsonWriter w = new JsonWriter(384).beginObject()
                .field("time", TIME.format(at))
                .field("client", wire.client())
                .field("method", shorten(s.method(), 16))
                .field("route", s.route())
                .field("path", shorten(s.rawPath(), PATH_LIMIT))
                .field("status", s.status())
                .field("bytesIn", wire.bytesIn())
                .field("bytesOut", wire.bytesOut())
                .field("durationMs", s.nanos() / 1e6)
                .field("upstreamMs", wire.upstreamNanos() / 1e6)
                .field("requestId", s.requestId());
        if (!s.clientId().isEmpty()) {
            w.field("clientId", s.clientId());
        }
        w.field("traceId", wire.traceId()).field("caller", shorten(s.caller(), 64)).field("userAgent", shorten(wire.userAgent(), 200));
        if (!wire.reason().isEmpty()) {
            w.field("reason", wire.reason());
        }
        w.field("protocol", wire.protocol());
        wire.proxied().ifPresent(p -> w.field("upstream", p.endpoint()).field("upstreamStatus", p.status()).field("tries", p.tries()));
        return w.endObject().toString();
    }

    private static String shorten(String s, int max) {
        return s.length() > max ? s.substring(0, max) + "..." : s;
    }
}
