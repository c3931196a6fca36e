package io.loomgate.edge.pipeline;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Request ids such as {@code 9f3a1c-2b}: a random prefix per process, so ids from two runs do not
 * collide in one log, and a counter, so they sort in arrival order within a run. Every request gets
 * an id of its own, so no two share one in {@code /debug/requests}, the logs or the timeline. A
 * trusted proxy's {@code X-Request-Id} (1 to {@value #MAX_LENGTH} visible ASCII characters) is taken
 * as the id, so one id follows a request through a fleet; anyone else's is kept beside the id, as the
 * client's own, for correlation.
 */
final class RequestIds {

    static final int MAX_LENGTH = 64;

    private final String prefix = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(2) + "-";
    private final AtomicLong counter = new AtomicLong();

    String next() {
        return prefix + Long.toHexString(counter.incrementAndGet());
    }

    /** A trusted proxy's id if it is acceptable, else a new one. */
    String idFor(String offered, boolean trustedPeer) {
        return trustedPeer && isAcceptable(offered) ? offered : next();
    }

    /** What is kept of a client's own id beside a new one: the id when it is acceptable, else nothing. */
    static String clientId(String offered, String id) {
        return isAcceptable(offered) && !offered.equals(id) ? offered : "";
    }

    static boolean isAcceptable(String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }
}
