package io.loomgate.core.call;

import io.loomgate.trace.Span;
import io.loomgate.trace.TraceRoot;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * A W3C trace context ({@code traceparent}): {@code 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>}.
 * loomgate keeps the client's trace id and flags, or starts a trace when the client sent none (or an
 * invalid one), and gives every outgoing call a parent id of its own.
 *
 * <pre>{@code
 * TraceParent t = TraceParent.fromHeader("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
 * t.child().header();   // 00-4bf92f3577b34da6a3ce929d0e0e4736-<new parent id>-01
 * }</pre>
 */
public final class TraceParent {

    private static final String ZERO_TRACE = "0".repeat(32);
    private static final String ZERO_PARENT = "0".repeat(16);

    private final String traceId;
    private final String parentId;
    private final String flags;

    /** Ids already checked, or made here: every public way in checks them once. */
    private TraceParent(String traceId, String parentId, String flags) {
        this.traceId = traceId;
        this.parentId = parentId;
        this.flags = flags;
    }

    /** A context from its parts, which must be well formed (lower-case hex of their lengths, ids not all zero). */
    public static TraceParent of(String traceId, String parentId, String flags) {
        if (!valid(traceId, parentId, flags)) {
            throw new IllegalArgumentException("not a valid trace context: " + traceId + "-" + parentId + "-" + flags);
        }
        return new TraceParent(traceId, parentId, flags);
    }

    private static boolean valid(String traceId, String parentId, String flags) {
        return isHex(traceId, 32) && !traceId.equals(ZERO_TRACE) && isHex(parentId, 16) && !parentId.equals(ZERO_PARENT)
                && isHex(flags, 2);
    }

    public String traceId() {
        return traceId;
    }

    public String parentId() {
        return parentId;
    }

    public String flags() {
        return flags;
    }

    /** The client's context if {@code header} is a valid version-00 {@code traceparent}, else a new, sampled one. */
    public static TraceParent fromHeader(String header) {
        if (header != null && header.length() == 55 && header.startsWith("00-") && header.charAt(35) == '-'
                && header.charAt(52) == '-') {
            String trace = header.substring(3, 35);
            String parent = header.substring(36, 52);
            String flags = header.substring(53);
            if (valid(trace, parent, flags)) {
                return new TraceParent(trace, parent, flags);
            }
        }
        return new TraceParent(randomHex(16), randomHex(8), "01");
    }

    /**
     * Where a request sits in a trace, as it arrives: the client's trace and its sampling decision
     * when {@code header} is a valid {@code traceparent} (parent-based sampling), or a new trace,
     * sampled for {@code ratio} of trace ids; a new span id for the request's server span.
     */
    public static TraceRoot root(String header, double ratio, Consumer<Span> sink) {
        TraceParent client = fromHeader(header);
        boolean continued = header != null && header.regionMatches(3, client.traceId(), 0, 32);
        if (continued) {
            boolean sampled = (HexFormat.fromHexDigits(client.flags()) & 1) == 1;
            return new TraceRoot(client.traceId(), randomHex(8), client.parentId(), sampled, sink);
        }
        return new TraceRoot(client.traceId(), randomHex(8), "", sampledByRatio(client.traceId(), ratio), sink);
    }

    /** True for {@code ratio} of trace ids: the low 63 bits of the id against the ratio's share of them. */
    static boolean sampledByRatio(String traceId, double ratio) {
        if (ratio >= 1) {
            return true;
        }
        if (ratio <= 0) {
            return false;
        }
        long low = Long.parseUnsignedLong(traceId.substring(16), 16) >>> 1;
        return low < (long) (ratio * Long.MAX_VALUE);
    }

    /** A new span id: 8 random bytes, in hex. */
    public static String newSpanId() {
        return randomHex(8);
    }

    /** The same trace, with a new parent id: the context for one outgoing call. */
    public TraceParent child() {
        return new TraceParent(traceId, randomHex(8), flags);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TraceParent t && t.traceId.equals(traceId) && t.parentId.equals(parentId) && t.flags.equals(flags);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(traceId, parentId, flags);
    }

    @Override
    public String toString() {
        return header();
    }

    /** The header value. */
    public String header() {
        return "00-" + traceId + "-" + parentId + "-" + flags;
    }

    private static final HexFormat HEX = HexFormat.of();

    /** {@code bytes} (8 or 16) random bytes in lower-case hex, never all zero (an invalid id). */
    private static String randomHex(int bytes) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high;
        long low;
        do {
            high = bytes == 16 ? random.nextLong() : 0;
            low = random.nextLong();
        } while (high == 0 && low == 0);
        return bytes == 16 ? HEX.toHexDigits(high) + HEX.toHexDigits(low) : HEX.toHexDigits(low);
    }

    private static boolean isHex(String s, int length) {
        if (s == null || s.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }
}
