package io.loomgate.http1;

/**
 * A small shared store of 8 KiB buffers, so a connection holds one only while it reads or writes a
 * message, yet does not make a new one for every request: an idle connection holds none (10,000 idle
 * keep-alive connections would otherwise hold 80 MB of them), and a busy server reuses the same few
 * hundred. Bounded: past {@link #SLOTS} a returned buffer is simply dropped. A stack under a lock
 * held for a few instructions (a virtual thread waiting on it does not pin its carrier): the last
 * buffer given is the next taken, still in the cache. It was a lock-free array probed at four random
 * slots, which missed most of the time once a few hundred buffers were spread over its 512, and then
 * made a new buffer: 11.5% of the bytes the proxy allocated (JFR, 2026-11-28).
 */
public final class Buffers {

    /** The size of every buffer here. */
    public static final int SIZE = 8192;
    static final int SLOTS = 512;
    private static final Buffers SHARED = new Buffers(SLOTS);

    private final byte[][] stack;
    private int held;

    Buffers(int slots) {
        this.stack = new byte[slots][];
    }

    /** A buffer of {@link #SIZE} bytes, reused or new; its contents are whatever its last user left. */
    public static byte[] take() {
        return SHARED.takeOne();
    }

    /** Gives {@code b} back; it must no longer be used. Buffers of another size are dropped. */
    public static void give(byte[] b) {
        SHARED.giveBack(b);
    }

    byte[] takeOne() {
        synchronized (stack) {
            if (held > 0) {
                byte[] b = stack[--held];
                stack[held] = null;
                return b;
            }
        }
        return new byte[SIZE];
    }

    void giveBack(byte[] b) {
        if (b == null || b.length != SIZE) {
            return;
        }
        synchronized (stack) {
            if (held < stack.length) {
                stack[held++] = b;
            }
        }
    }

    /** How many buffers wait to be taken again. */
    int held() {
        synchronized (stack) {
            return held;
        }
    }
}
