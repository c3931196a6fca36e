package io.loomgate;

import io.loomgate.config.ServerKind;
import java.util.Properties;

/**
 * Two carrier threads for virtual threads where the JVM sees one processor (a container limited to
 * one CPU, a process pinned with {@code taskset}) and the JDK's server listens, unless the operator
 * chose a number. loomgate's own server keeps the JDK's default, one.
 *
 * <p>Why: the JDK's scheduler is a {@code ForkJoinPool}, and a carrier runs the tasks of its own
 * queue until that queue is empty before it takes what waits in its queue for outside work; JDK 25
 * puts every virtual thread's start there, even one made on a carrier. Under steady load on one
 * carrier the threads already running keep its own queue full, and a thread started meanwhile waits.
 * The JDK's server starts a thread for every exchange. loomgate's server starts one a connection,
 * and no longer waits for it: a new connection is handed to a spare thread woken onto the carrier's
 * own queue ({@code Spares}). Measured on one core (docs/performance.md, "One carrier's slow
 * answers"): before the spares, the slowest answer of a 10 s window at c=256 on the proxy took up to
 * 1.95 s with one carrier (the last of wrk's 256 new connections waiting for its thread) and at most
 * 60 ms with two; with them, one carrier's slowest took 15 to 89 ms in 8 windows, and one carrier cost
 * less CPU a request than two on {@code /aggregate} (4 of 4 windows) and over HTTP/2 (4 of 4).
 */
final class CarrierDefaults {

    static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

    private CarrierDefaults() {
    }

    /**
     * Sets {@value #PARALLELISM} to 2 in {@code properties} when {@code processors} is 1, {@code server}
     * is the JDK's and it is not set; must run before the first virtual thread is made, which reads
     * it. True when it set it.
     */
    static boolean apply(int processors, ServerKind server, Properties properties) {
        if (processors != 1 || server != ServerKind.JDK || properties.getProperty(PARALLELISM) != null) {
            return false;
        }
        properties.setProperty(PARALLELISM, "2");
        return true;
    }
}
