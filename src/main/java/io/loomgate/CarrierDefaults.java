package io.loomgate;

import java.util.Properties;

/**
 * Two carrier threads for virtual threads where the JVM sees one processor (a container limited to
 * one CPU, a process pinned with {@code taskset}), unless the operator chose a number.
 *
 * <p>Why: the JDK's scheduler is a {@code ForkJoinPool}, and a carrier runs the tasks of its own
 * queue until that queue is empty before it takes what waits in its queue for outside work; JDK 25
 * puts there every virtual thread's start (even one made on a carrier) and every wake-up a platform
 * thread gives. Under steady load on one carrier the threads already running keep its own queue full,
 * and the rest waits. What waited most was a new connection's thread (the last of 256 new
 * connections first ran up to 0.97 s after it was accepted); loomgate's server now wakes a parked
 * spare for it instead ({@code Spares}). With the spares one carrier cost less CPU a request than two
 * (about 8% on {@code /aggregate}, 10% over HTTP/2), but a few answers still took 0.46 to 1.95 s in 5
 * of about 100 ten-second windows, for a cause not found, where two carriers' slowest took at most
 * 90 ms (docs/performance.md, "One carrier's slow answers"). The operating system gives the second
 * carrier the core while the first is busy, and it runs what waits.
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
