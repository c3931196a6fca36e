package io.loomgate.config;

/**
 * How many connections loomgate holds at once unless {@code --max-connections} says: what a third
 * of the heap holds when every connection costs what the worst one does on the server that holds
 * it, and below the file-descriptor limit. A third, not more, because the rest is for the requests
 * those connections make and for the collector's headroom: with half, a flood of stalled connections
 * (scripts/load --scenario abuse) pinned half the heap and the gateway's RSS passed its -Xmx; with a
 * third it peaked at 488 and 490 MB under -Xmx512m (2026-11-27, load/results/abuse-latest), as it did
 * with a quarter (501 MB).
 *
 * <p>The worst is a connection that stalls part way through what it must send before it is served.
 * Measured by {@code scripts/load --scenario connections} (heap after GC, 2,000 connections of each
 * kind, 2026-11-27, load/results/connections-latest):
 *
 * <table>
 *   <tr><th>a connection that</th><th>loomgate's server</th><th>the JDK's</th></tr>
 *   <tr><td>sent nothing yet</td><td>4.3 KB</td><td>0.8 KB</td></tr>
 *   <tr><td>sent part of a request head and stalls</td><td>13.1 KB</td><td>31.7 to 32.2 KB</td></tr>
 *   <tr><td>is idle between requests (keep-alive)</td><td>6.1 KB</td><td>21.9 KB</td></tr>
 *   <tr><td>sent part of a TLS ClientHello and stalls</td><td>14.3 KB</td><td>80.5 KB</td></tr>
 *   <tr><td>sent a whole ClientHello and stalls</td><td>29.5 KB (up to 51.8 with OpenSSL's)</td><td>112.6 to 128.7 KB</td></tr>
 * </table>
 *
 * So a 512 MB heap holds 10,922 plain or 3,120 TLS connections at most on loomgate's server, whatever
 * they do, and 5,295 or 1,285 on the JDK's.
 */
public final class ConnectionBudget {

    /** Heap a connection may cost at worst on loomgate's server, plain HTTP (13.1 KB measured: a stalled head). */
    public static final long PLAIN_BYTES = 16 * 1024;
    /** The same with TLS: a whole ClientHello, then silence (51.8 KB measured with OpenSSL's). */
    public static final long TLS_BYTES = 56 * 1024;
    /** Heap a connection may cost at worst on the JDK's server, plain HTTP: a stalled head (32.2 KB measured). */
    public static final long JDK_PLAIN_BYTES = 33 * 1024;
    /** The same with TLS: a whole ClientHello, then silence (112.5 to 128.7 KB measured). */
    public static final long JDK_TLS_BYTES = 136 * 1024;
    /**
     * Heap an idle tunnel holds (a WebSocket through a proxy route: the client's connection, the
     * upstream's, and a thread copying each way): 2,000 idle tunnels held 136 MB after GC, about
     * 68 KB each (the security review of 2026-11-27, on loomgate's server).
     */
    public static final long TUNNEL_BYTES = 70 * 1024;
    /**
     * How many places beyond its own one a tunnel takes under {@code --max-connections} on loomgate's
     * server (the only one that counts tunnels): its cost over a plain connection's (the server's
     * {@code ServerLimits.TUNNEL_EXTRA}, which a test keeps equal).
     */
    public static final int TUNNEL_EXTRA = (int) ((TUNNEL_BYTES + PLAIN_BYTES - 1) / PLAIN_BYTES) - 1;
    /**
     * Heap an HTTP/2 connection may hold beyond a plain one's, at worst, priced from its bounds: the
     * request bodies its receive window allows (256 KiB), a header block being joined (64 KiB), and
     * the two HPACK tables (4 KiB each). Measured on 2026-11-27 ({@code scripts/load --scenario
     * connections}, kind {@code h2-full}): 337 KB with all of that held, less its running requests
     * (which {@code --max-inflight} bounds), within the 352 KiB its places come to.
     */
    public static final long H2_BYTES = (256 + 64 + 8) * 1024;
    /** How many places beyond its own one an HTTP/2 connection takes (the server's {@code ServerLimits.H2_EXTRA}, kept equal by a test). */
    public static final int H2_EXTRA = (int) ((H2_BYTES + PLAIN_BYTES - 1) / PLAIN_BYTES);
    /** Descriptors kept for everything else: upstream connections, files, the JVM's own. */
    private static final long RESERVED_DESCRIPTORS = 1024;
    private static final int FLOOR = 256;

    private ConnectionBudget() {
    }

    /** The default for this JVM's heap and descriptor limit, on {@code server}. */
    public static int forThisJvm(ServerKind server, boolean tls) {
        return of(Runtime.getRuntime().maxMemory(), DescriptorLimit.ofThisProcess().orElse(Long.MAX_VALUE), server, tls);
    }

    /** What one connection is priced at on {@code server}. */
    static long price(ServerKind server, boolean tls) {
        return switch (server) {
            case LOOMGATE -> tls ? TLS_BYTES : PLAIN_BYTES;
            case JDK -> tls ? JDK_TLS_BYTES : JDK_PLAIN_BYTES;
        };
    }

    /** A third of {@code maxHeap} at the worst cost of one connection, below {@code descriptors}, at least {@value #FLOOR}. */
    static int of(long maxHeap, long descriptors, ServerKind server, boolean tls) {
        long byHeap = maxHeap / 3 / price(server, tls);
        long byDescriptors = descriptors - RESERVED_DESCRIPTORS;
        return (int) Math.max(FLOOR, Math.min(Math.min(byHeap, byDescriptors), 10_000_000));
    }
}
