package io.loomgate.server;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Request ids such as {@code 9f3a1c-2b}: a random prefix per process, so ids from two runs do not
 * collide in one log, and a counter, so they sort in arrival order within a run.
 */
final class RequestIds {

    private final String prefix = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(2) + "-";
    private final AtomicLong counter = new AtomicLong();

    String next() {
        return prefix + Long.toHexString(counter.incrementAndGet());
    }
}
