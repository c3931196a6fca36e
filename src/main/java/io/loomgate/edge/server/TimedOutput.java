package io.loomgate.edge.server;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A connection's output with each write timed, so the {@link io.loomgate.net.IoWatchdog} can
 * tell a write that has waited too long (a client that reads nothing) and close its connection.
 */
final class TimedOutput extends OutputStream {

    private final OutputStream out;
    private volatile long writingSince;

    TimedOutput(OutputStream out) {
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        writingSince = System.nanoTime();
        try {
            out.write(b, off, len);
        } finally {
            writingSince = 0;
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** Whether a write began before {@code now} ({@link System#nanoTime()}) by more than {@code limitNanos}, and waits still. */
    boolean stalled(long now, long limitNanos) {
        long since = writingSince;
        return since != 0 && now - since > limitNanos;
    }
}
