package io.loomgate;

import java.util.Properties;

/**
 * Two carrier threads for virtual threads where the JVM sees one processor (a container limited to
 * one CPU, a process pinned with {@code taskset}), unless the operator chose a number.
 *
 * <p>Why: the JDK's scheduler is a {@code ForkJoinPool}, and a carrier runs the tasks of its own
 * queue until that queue is empty before it looks at what a platform thread submitted. Under steady
 * load on one carrier the threads already running keep its queue full, and what came from outside
 * waits: the late hang-up watch the watchdog starts for a request past 100 ms, which the connection
 * then waited for (thread dumps showed it; one not yet run is now called off, which alone did not end
 * the slow answers), and JDK 25's poller when it had nothing to poll. Measured
 * on loomgate's proxy at c=256 on one core, the slowest answer of a 10 s window took 23 ms to 1.73 s
 * (above 130 ms in 15 of 22 windows), where with a second carrier it took at most 60 ms in 18
 * windows, for about 4% more CPU a request (docs/performance.md, "One carrier's slow answers"). The
 * operating system gives the second carrier the core while the first is busy, and it runs them.
 */
final class CarrierDefaults {

    static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

    private CarrierDefaults() {
    }

    /**
     * Sets {@value #PARALLELISM} to 2 in {@code properties} when {@code processors} is 1 and it is not
     * set; must run before the first virtual thread is made, which reads it. True when it set it.
     */
    static boolean apply(int processors, Properties properties) {
        if (processors != 1 || properties.getProperty(PARALLELISM) != null) {
            return false;
        }
        properties.setProperty(PARALLELISM, "2");
        return true;
    }
}
