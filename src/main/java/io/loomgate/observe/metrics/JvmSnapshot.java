package io.loomgate.observe.metrics;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;

/**
 * The JVM at one moment, from its MXBeans.
 *
 * @param processCpuLoad recent CPU use of this process, 0 to 1 of all cores; negative if unknown
 * @param platformThreads live platform threads ({@code ThreadMXBean} does not count virtual ones)
 */
record JvmSnapshot(long heapUsedBytes, long heapCommittedBytes, long heapMaxBytes, long gcCount, long gcTimeMs,
                   double processCpuLoad, long uptimeMs, int platformThreads) {

    static JvmSnapshot take() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long gcCount = 0;
        long gcTime = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcCount += Math.max(0, gc.getCollectionCount());
            gcTime += Math.max(0, gc.getCollectionTime());
        }
        double cpu = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuLoad() : -1;
        return new JvmSnapshot(heap.getUsed(), heap.getCommitted(), heap.getMax(), gcCount, gcTime, cpu,
                ManagementFactory.getRuntimeMXBean().getUptime(), ManagementFactory.getThreadMXBean().getThreadCount());
    }
}
