package io.loomgate.server;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Request ids such as {@code 9f3a1c-2b}: a random prefix per process, so ids from two runs do not
 * collide in one log, and a counter, so they sort in arrival order within a run. A client's own
 * {@code X-Request-Id} is kept when it is 1 to {@value #MAX_LENGTH} visible ASCII characters, so
 * one id can follow a request through several services.
 */
final class RequestIds {

    static final int MAX_LENGTH = 64;

    private final String prefix = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(2) + "-";
    private final AtomicLong counter = new AtomicLong();

    String next() {
        return prefix + Long.toHexString(counter.incrementAndGet());
    }

    /** The client's id if it is acceptable, else a new one. */
    String keepOrNext(String offered) {
        return isAcceptable(offered) ? offered : next();
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
