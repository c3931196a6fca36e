package io.loomgate.http1;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A small shared store of 8 KiB buffers, so a connection holds one only while it reads or writes a
 * message, yet does not make a new one for every request: an idle connection holds none (10,000 idle
 * keep-alive connections would otherwise hold 80 MB of them), and a busy server reuses the same few
 * hundred. Bounded: past {@link #SLOTS} a returned buffer is simply dropped. Lock-free; a few slots
 * are tried from a random start, so threads seldom meet on one.
 */
public final class Buffers {

    /** The size of every buffer here. */
    public static final int SIZE = 8192;
    private static final int SLOTS = 512;
    private static final int TRIES = 4;
    private static final AtomicReferenceArray<byte[]> SLOT = new AtomicReferenceArray<>(SLOTS);

    private Buffers() {
    }

    /** A buffer of {@link #SIZE} bytes, reused or new; its contents are whatever its last user left. */
    public static byte[] take() {
        int start = ThreadLocalRandom.current().nextInt(SLOTS);
        for (int i = 0; i < TRIES; i++) {
            byte[] b = SLOT.getAndSet((start + i) % SLOTS, null);
            if (b != null) {
                return b;
            }
        }
        return new byte[SIZE];
    }

    /** Gives {@code b} back; it must no longer be used. Buffers of another size are dropped. */
    public static void give(byte[] b) {
        if (b == null || b.length != SIZE) {
            return;
        }
        int start = ThreadLocalRandom.current().nextInt(SLOTS);
        for (int i = 0; i < TRIES; i++) {
            if (SLOT.compareAndSet((start + i) % SLOTS, null, b)) {
                return;
            }
        }
    }
}
