package io.loomgate.client;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the client's connections to one origin (a pool key) have done, and hold now: read by
 * {@link Http1Client#stats()} for {@code /metrics}.
 *
 * @param origin      the pool key: scheme, host and port, the trust and the address when they matter, the protocol asked
 * @param http1Opened HTTP/1.1 connections opened (with a connection {@code auto}'s ALPN gave to HTTP/1.1)
 * @param http1Idle   HTTP/1.1 connections idle in the pool now
 * @param h2Opened    HTTP/2 connections opened
 * @param h2Open      HTTP/2 connections open now
 * @param h2Streams   HTTP/2 streams open now, over all of them
 * @param h2Resets    streams this side reset ({@code RST_STREAM}: a cancelled call, an answer not read to its end)
 * @param h2Refused   streams the upstream refused unprocessed ({@code REFUSED_STREAM}, above a {@code GOAWAY})
 */
public record OriginStats(String origin, long http1Opened, int http1Idle, long h2Opened, int h2Open, int h2Streams, long h2Resets,
                          long h2Refused) {

    /** The counters of one origin, kept while its address serves. */
    static final class Counts {
        final LongAdder http1Opened = new LongAdder();
        final LongAdder h2Opened = new LongAdder();
        final LongAdder h2Resets = new LongAdder();
        final LongAdder h2Refused = new LongAdder();
    }
}
