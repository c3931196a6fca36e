package io.loomgate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The perf breakdown, on a made-up {@code perf script} text in its real shape. */
class PerfBreakdownTest {

    private static final String SCRIPT = """
            ForkJoinPool-1- 13900 22646.763902:    1001001 cpu-clock:ppp:\s
            \t    ffffffff8a1 finish_task_switch.isra.0 ([kernel.kallsyms])
            \t    ffffffff8a2 do_syscall_64 ([kernel.kallsyms])
            \t          1f0b4f __GI___libc_write+0x4f (/usr/lib/x86_64-linux-gnu/libc.so.6)
            \t    7f0000001 int sun.nio.ch.SocketDispatcher.write0(java.io.FileDescriptor, long, int) (/tmp/perf-1.map)
            \t    7f0000002 void io.loomgate.http1.ChunkedOutput.write(byte[], int, int) (/tmp/perf-1.map)
            \t    7f0000003 void io.loomgate.client.Http1Connection.send(io.loomgate.client.OutgoingRequest, boolean) (/tmp/perf-1.map)
            \t    7f0000004 java.util.Optional io.loomgate.edge.pipeline.Pipeline.run(io.loomgate.http.Exchange) (/tmp/perf-1.map)

            ForkJoinPool-1- 13901 22646.764000:    1001001 cpu-clock:ppp:\s
            \t    7f0000005 void io.loomgate.http1.FieldLines.read(io.loomgate.http1.LineInput) (/tmp/perf-1.map)
            \t    7f0000006 void io.loomgate.edge.server.Connection.serve() (/tmp/perf-1.map)

            ForkJoinPool-1- 13901 22646.765000:    1001001 cpu-clock:ppp:\s
            \t    ffffffff8a3 futex_wake ([kernel.kallsyms])
            \t          89f pthread_cond_signal@@GLIBC_2.3.2+0x9f (/usr/lib/x86_64-linux-gnu/libc.so.6)
            \t          a00 Unsafe_Unpark+0x40 (/usr/lib/jvm/temurin-25-jdk-amd64/lib/server/libjvm.so)
            \t    7f0000007 void java.util.concurrent.ForkJoinPool.signalWork() (/tmp/perf-1.map)

            C2 CompilerThre 13905 22646.766000:    1001001 cpu-clock:ppp:\s
            \t          658fd2 Matcher::match+0x2 (/usr/lib/jvm/temurin-25-jdk-amd64/lib/server/libjvm.so)

            """;

    @Test
    void eachSampleIsPlacedByThreadByWhoseWorkAndBySystemCall() {
        PerfBreakdown b = PerfBreakdown.of(SCRIPT.lines().toList());

        assertEquals(4, b.total());
        assertEquals(Map.of("request threads", 3, "JIT compilers", 1), b.threads());
        // The codec's frames are skipped: its work belongs to whoever called it (the client, the server).
        assertEquals(Map.of("kernel", 1), b.components().get("HTTP client (upstream calls)"));
        assertEquals(Map.of("Java and libc", 1), b.components().get("server (connections, heads, bodies)"));
        assertEquals(Map.of("kernel", 1), b.components().get("virtual-thread scheduling"));
        assertEquals(Map.of("write", 1, "futex wake (a parked thread is woken)", 1), b.syscalls());
    }

    @Test
    void theMarkdownGivesSharesAndMicrosecondsOfARequest() {
        String md = PerfBreakdown.of(SCRIPT.lines().toList()).markdown(80);

        assertTrue(md.startsWith("4 samples."), md);
        assertTrue(md.contains("| request threads | 75.0% | 60.0 |"), md);
        assertTrue(md.contains("| write | 25.0% | 20.0 |"), md);
        assertTrue(md.contains("| Matcher::match | 25.0% | 20.0 |"), md);
    }

    @Test
    void aThreadsNameDecidesItsGroup() {
        assertEquals("garbage collector", PerfBreakdown.threadGroup("GC Thread#0"));
        assertEquals("garbage collector", PerfBreakdown.threadGroup("G1 Refine#0"));
        assertEquals("request threads", PerfBreakdown.threadGroup("HTTP-Dispatcher"));
        assertEquals("request threads", PerfBreakdown.threadGroup("loomgate-io-watchdog"));
        assertEquals("rest of the JVM", PerfBreakdown.threadGroup("VM Thread"));
        assertEquals("other", PerfBreakdown.component(List.of()));
    }
}
