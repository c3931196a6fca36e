package io.loomgate.load;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/**
 * The CPU a gzipped answer costs per KB, as {@code "compress"} pays it: the JDK's
 * {@link GZIPOutputStream} at its default level over 64 KB of JSON-like text, 2,000 times, three
 * rounds, CPU time of this thread (so another load on the machine does not count). Run with
 * {@code java src/test/java/io/loomgate/load/GzipCost.java}; docs/performance.md has the figure.
 */
public final class GzipCost {

    private GzipCost() {
    }

    public static void main(String[] args) throws IOException {
        StringBuilder sb = new StringBuilder();
        Random r = new Random(7);
        while (sb.length() < 64 * 1024) {
            sb.append("{\"id\":").append(r.nextInt(100_000)).append(",\"name\":\"item-").append(r.nextInt(1000))
                    .append("\",\"price\":").append(r.nextInt(10_000) / 100.0).append("},");
        }
        byte[] in = sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (int round = 0; round < 3; round++) {
            long start = cpu.getCurrentThreadCpuTime();
            long out = 0;
            int n = 2000;
            for (int i = 0; i < n; i++) {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                try (GZIPOutputStream g = new GZIPOutputStream(b)) {
                    g.write(in);
                }
                out += b.size();
            }
            double kb = (double) in.length * n / 1024;
            System.out.printf("round %d: %.1f us of CPU per KB in, compressed to %.0f%%%n", round,
                    (cpu.getCurrentThreadCpuTime() - start) / 1000.0 / kb, 100.0 * out / ((long) in.length * n));
        }
    }
}
