package io.loomgate.observe.metrics;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import jdk.management.VirtualThreadSchedulerMXBean;

/**
 * What the virtual-thread scheduler is doing: loomgate's own count of the virtual threads it started
 * ({@code ThreadMXBean} counts none), the scheduler's gauges from
 * {@link VirtualThreadSchedulerMXBean} (JDK 24 and later), and the pins JFR sees.
 */
public final class VirtualThreads implements AutoCloseable {

    private final LongAdder started;
    private final PinningMonitor pins;

    private VirtualThreads(LongAdder started, PinningMonitor pins) {
        this.started = started;
        this.pins = pins;
    }

    /**
     * @param started the counter every part of loomgate that starts a virtual thread increments
     */
    public static VirtualThreads start(LongAdder started) {
        return new VirtualThreads(started, PinningMonitor.start());
    }

    Snapshot snapshot() {
        VirtualThreadSchedulerMXBean scheduler = Scheduler.BEAN;
        return new Snapshot(started.sum(), scheduler.getParallelism(), scheduler.getPoolSize(),
                scheduler.getMountedVirtualThreadCount(), scheduler.getQueuedVirtualThreadCount(),
                pins.events(), pins.state(), pins.recent());
    }

    /** The scheduler's bean, looked up when first read: the platform beans' start costs a start 5 to 10 ms. */
    private static final class Scheduler {
        static final VirtualThreadSchedulerMXBean BEAN = ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class);
    }

    /** Stops the JFR stream. */
    @Override
    public void close() {
        pins.close();
    }

    /**
     * @param started      virtual threads loomgate started (requests, subtasks, baseline tasks)
     * @param parallelism  the scheduler's target number of carrier threads
     * @param poolSize     carrier threads that exist now
     * @param mounted      virtual threads running on a carrier now
     * @param queued       virtual threads waiting for a carrier
     * @param pinnedEvents pins JFR reported (-1 without JFR)
     * @param pinMonitor   {@code starting} (JFR starts a second after the server), {@code running}
     *                     or {@code unavailable}
     * @param recentPins   the last few pins, newest first
     */
    record Snapshot(long started, int parallelism, int poolSize, int mounted, long queued, long pinnedEvents,
                    String pinMonitor, List<PinningMonitor.Pin> recentPins) {
    }
}
