package io.loomgate.observe.metrics;

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
 * a second. Starting JFR takes about 300 ms of CPU, so the stream starts on a thread of its own,
 * {@link #START_AFTER} after the server, off its way to its first answers; pins are counted from then on.
 */
final class PinningMonitor implements AutoCloseable {

    static final Duration THRESHOLD = Duration.ofMillis(20);
    /** JFR starts this long after the server, so its 300 ms of work does not compete with startup on 2 cores. */
    static final Duration START_AFTER = Duration.ofSeconds(1);
    private static final String EVENT = "jdk.VirtualThreadPinned";
    private static final int KEPT = 5;
    private static final int FRAMES = 6;
    private static final System.Logger LOG = System.getLogger("loomgate");

    /** One pin: when, how long, on which thread, and the top of its stack. */
    record Pin(Instant at, Duration duration, String thread, List<String> topFrames) {
    }

    private final LongAdder events = new LongAdder();
    private final Deque<Pin> recent = new ArrayDeque<>();
    private RecordingStream stream;
    private boolean unavailable;
    private boolean closed;

    private PinningMonitor() {
    }

    /**
     * Starts the stream in the background and returns at once; without JFR (a JVM built without it,
     * say) the monitor reports -1.
     */
    static PinningMonitor start() {
        PinningMonitor monitor = new PinningMonitor();
        Thread.ofPlatform().name("loomgate-jfr-start").daemon(true).start(monitor::open);
        return monitor;
    }

    private void open() {
        try {
            Thread.sleep(START_AFTER);
        } catch (InterruptedException e) {
            return;
        }
        RecordingStream rs;
        try {
            rs = new RecordingStream();
            rs.enable(EVENT).withStackTrace().withThreshold(THRESHOLD);
            rs.onEvent(EVENT, this::onPin);
        } catch (RuntimeException | Error e) {
            LOG.log(Level.WARNING, "JFR is unavailable, so pinned virtual threads are not counted: " + e);
            synchronized (this) {
                unavailable = true;
            }
            return;
        }
        synchronized (this) {
            if (closed) {
                rs.close();
                return;
            }
            stream = rs;
            rs.startAsync();
        }
    }

    private void onPin(RecordedEvent e) {
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
        events.increment();   // last, so a reader that sees the count also sees the pin
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

    /** {@code starting}, {@code running} or {@code unavailable} (no JFR in this JVM). */
    synchronized String state() {
        return unavailable ? "unavailable" : stream != null ? "running" : "starting";
    }

    /** Pins seen since the stream started, or -1 without JFR. */
    synchronized long events() {
        return unavailable ? -1 : events.sum();
    }

    /** The last few pins, newest first. */
    List<Pin> recent() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (stream != null) {
            stream.close();
        }
    }
}
