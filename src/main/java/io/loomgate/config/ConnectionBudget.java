package io.loomgate.config;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/**
 * How many connections loomgate holds at once unless {@code --max-connections} says: what a quarter
 * of the heap holds when every connection costs what the worst one does, and below the
 * file-descriptor limit. A quarter, not more, because the rest is for the requests those
 * connections make and for the collector's headroom: with half, a flood of stalled connections
 * (scripts/load --scenario abuse) pinned half the heap and the gateway's RSS passed its -Xmx. The worst is a connection that stalls part way through what it must send before it is
 * served (measured on the JDK server, heap after GC, 2,000 connections each, 2026-11-25):
 *
 * <table>
 *   <tr><th>a connection that</th><th>heap</th></tr>
 *   <tr><td>sent nothing yet</td><td>0.8 KB</td></tr>
 *   <tr><td>is idle between requests (keep-alive)</td><td>22 KB</td></tr>
 *   <tr><td>sent part of a request head and stalls</td><td>32 KB</td></tr>
 *   <tr><td>sent part of a TLS ClientHello and stalls</td><td>79 KB</td></tr>
 * </table>
 *
 * So a 512 MB heap holds 4,096 plain or 1,638 TLS connections at most, whatever they do.
 */
public final class ConnectionBudget {

    /** Heap a connection may cost at worst, plain HTTP: a stalled request head (32 KB measured). */
    public static final long PLAIN_BYTES = 32 * 1024;
    /** Heap a connection may cost at worst, with TLS: a stalled handshake (79 KB measured). */
    public static final long TLS_BYTES = 80 * 1024;
    /**
     * Heap an idle tunnel holds (a WebSocket through a proxy route: the client's connection, the
     * upstream's, and a thread copying each way): 2,000 idle tunnels held 136 MB after GC, about
     * 68 KB each (the security review of 2026-11-27, on loomgate's server).
     */
    public static final long TUNNEL_BYTES = 70 * 1024;
    /** How many places beyond its own one a tunnel takes under {@code --max-connections}: its cost over a connection's (the server's {@code ServerLimits.TUNNEL_EXTRA}). */
    public static final int TUNNEL_EXTRA = (int) ((TUNNEL_BYTES + PLAIN_BYTES - 1) / PLAIN_BYTES) - 1;
    /** Descriptors kept for everything else: upstream connections, files, the JVM's own. */
    private static final long RESERVED_DESCRIPTORS = 1024;
    private static final int FLOOR = 256;

    private ConnectionBudget() {
    }

    /** The default for this JVM's heap and descriptor limit. */
    public static int forThisJvm(boolean tls) {
        long descriptors = Long.MAX_VALUE;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix) {
            descriptors = unix.getMaxFileDescriptorCount();
        }
        return of(Runtime.getRuntime().maxMemory(), descriptors, tls);
    }

    /** A quarter of {@code maxHeap} at the worst cost of one connection, below {@code descriptors}, at least {@value #FLOOR}. */
    static int of(long maxHeap, long descriptors, boolean tls) {
        long byHeap = maxHeap / 4 / (tls ? TLS_BYTES : PLAIN_BYTES);
        long byDescriptors = descriptors - RESERVED_DESCRIPTORS;
        return (int) Math.max(FLOOR, Math.min(Math.min(byHeap, byDescriptors), 10_000_000));
    }
}
