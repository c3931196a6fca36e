package io.loomgate.metrics;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * Counts {@code jdk.VirtualThreadPinned} events with a JFR {@link RecordingStream} running inside
 * the server, and keeps the top frames of the last few. A virtual thread is pinned when it must
 * block but cannot unmount, which holds its carrier thread. Since JDK 24, {@code synchronized} no
 * longer pins; blocking inside a class initializer or under a native frame still does. JFR reports
 * pins that last at least {@link #THRESHOLD}, its own default. Events reach the stream about once
 * a second.
 */
final class PinningMonitor implements AutoCloseable {

    static final Duration THRESHOLD = Duration.ofMillis(20);
    private static final String EVENT = "jdk.VirtualThreadPinned";
    private static final int KEPT = 5;
    private static final int FRAMES = 6;
    private static final System.Logger LOG = System.getLogger("loomgate");

    /** One pin: when, how long, on which thread, and the top of its stack. */
    record Pin(Instant at, Duration duration, String thread, List<String> topFrames) {
    }

    private final LongAdder events = new LongAdder();
    private final Deque<Pin> recent = new ArrayDeque<>();
    private final RecordingStream stream;

    private PinningMonitor(RecordingStream stream) {
        this.stream = stream;
    }

    /** Starts the stream; without JFR (a JVM built without it, say) the monitor reports -1. */
    static PinningMonitor start() {
        try {
            RecordingStream rs = new RecordingStream();
            rs.enable(EVENT).withStackTrace().withThreshold(THRESHOLD);
            PinningMonitor monitor = new PinningMonitor(rs);
            rs.onEvent(EVENT, monitor::onPin);
            rs.startAsync();
            return monitor;
        } catch (RuntimeException | Error unavailable) {
            LOG.log(Level.WARNING, "JFR is unavailable, so pinned virtual threads are not counted: " + unavailable);
            return new PinningMonitor(null);
        }
    }

    private void onPin(RecordedEvent e) {
        events.increment();
        // The top frames are the JDK's own parking machinery; the ones below show where the code blocked.
        List<String> frames = e.getStackTrace() == null ? List.of() : e.getStackTrace().getFrames().stream()
                .dropWhile(PinningMonitor::isParkingMachinery).limit(FRAMES).map(PinningMonitor::frame).toList();
        String thread = e.getThread() == null ? "?" : threadName(e.getThread());
        Pin pin = new Pin(e.getStartTime(), e.getDuration(), thread, frames);
        synchronized (recent) {
            recent.addFirst(pin);
            if (recent.size() > KEPT) {
                recent.removeLast();
            }
        }
    }

    private static boolean isParkingMachinery(RecordedFrame f) {
        String type = f.getMethod().getType().getName();
        return type.equals("java.lang.VirtualThread") || type.equals("java.lang.Thread")
                || type.equals("java.util.concurrent.locks.LockSupport") || type.startsWith("jdk.internal.misc.");
    }

    private static String threadName(RecordedThread t) {
        String name = t.getJavaName();
        return name == null || name.isEmpty() ? "unnamed virtual thread #" + t.getJavaThreadId() : name;
    }

    private static String frame(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName() + ":" + f.getLineNumber();
    }

    /** Pins seen since start, or -1 without JFR. */
    long events() {
        return stream == null ? -1 : events.sum();
    }

    /** The last few pins, newest first. */
    List<Pin> recent() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }

    @Override
    public void close() {
        if (stream != null) {
            stream.close();
        }
    }
}
