package io.loomgate.load;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a gateway's CPU goes, from {@code perf script} output (samples with their call chains, Java
 * frames named through the JVM's perf map). JFR samples only Java frames; the proxy spends most of
 * its CPU below them, in the kernel's socket work and the JVM's scheduling, so this reads what the
 * kernel sampled instead. Each sample is put in one place three ways:
 * <ul>
 *   <li>by thread: the request threads (virtual threads' carriers, a platform pool, the JDK server's
 *       dispatcher), the garbage collector, the JIT compilers, the rest of the JVM;</li>
 *   <li>on request threads, by the part of loomgate whose work it is (the innermost loomgate frame:
 *       the HTTP client, the server, the pipeline...) and by what ran (Java code, the JVM runtime,
 *       the kernel);</li>
 *   <li>in the kernel, by system call (named by the libc function that made it).</li>
 * </ul>
 */
public final class PerfBreakdown {

    private static final Pattern HEADER = Pattern.compile("^(.*?)\\s+\\d+(?:/\\d+)?\\s+[\\d.]+:.*");
    private static final Pattern FRAME = Pattern.compile("^\\s*[0-9a-f]+ (.*) \\((.*)\\)$");

    /** One frame: its symbol (a Java method's signature, or a native symbol) and its object file. */
    record Frame(String symbol, String dso) {
        boolean kernel() {
            return dso.contains("kernel");
        }

        boolean jvm() {
            return dso.endsWith("libjvm.so");
        }

        /** The Java class and method, {@code pkg.Class.method}, or the native symbol without its offset. */
        String method() {
            String s = symbol;
            int paren = s.indexOf('(');
            if (paren > 0) {
                s = s.substring(0, paren);
                return s.substring(s.lastIndexOf(' ') + 1);
            }
            int plus = s.lastIndexOf("+0x");
            String name = plus > 0 ? s.substring(0, plus) : s;
            return name.isEmpty() ? "[unknown]" : name;
        }
    }

    /** One sample: the thread's name and its frames, innermost first. */
    record Sample(String thread, List<Frame> frames) {
    }

    private final Map<String, Integer> threads = new TreeMap<>();
    private final Map<String, Map<String, Integer>> components = new TreeMap<>();
    private final Map<String, Integer> syscalls = new TreeMap<>();
    private final Map<String, Integer> leaves = new TreeMap<>();
    private int total;

    /** Reads {@code perf script}'s text: a header line per sample, then its frames, then a blank line. */
    public static PerfBreakdown of(Iterable<String> lines) {
        PerfBreakdown b = new PerfBreakdown();
        String thread = null;
        List<Frame> frames = new ArrayList<>();
        for (String line : lines) {
            if (line.isBlank()) {
                if (thread != null) {
                    b.add(new Sample(thread, frames));
                }
                thread = null;
                frames = new ArrayList<>();
                continue;
            }
            Matcher frame = FRAME.matcher(line);
            if (Character.isWhitespace(line.charAt(0)) && frame.matches()) {
                frames.add(new Frame(frame.group(1), frame.group(2)));
                continue;
            }
            Matcher header = HEADER.matcher(line);
            if (header.matches()) {
                thread = header.group(1).strip();
            }
        }
        if (thread != null) {
            b.add(new Sample(thread, frames));
        }
        return b;
    }

    void add(Sample s) {
        total++;
        String group = threadGroup(s.thread());
        threads.merge(group, 1, Integer::sum);
        if (!s.frames().isEmpty()) {
            leaves.merge(s.frames().getFirst().method(), 1, Integer::sum);
        }
        if (!group.equals(REQUESTS)) {
            return;
        }
        components.computeIfAbsent(component(s.frames()), k -> new TreeMap<>()).merge(ran(s.frames()), 1, Integer::sum);
        if (!s.frames().isEmpty() && s.frames().getFirst().kernel()) {
            syscalls.merge(syscall(s.frames()), 1, Integer::sum);
        }
    }

    static final String REQUESTS = "request threads";

    static String threadGroup(String thread) {
        if (thread.startsWith("GC Thread") || thread.startsWith("G1 ")) {
            return "garbage collector";
        }
        if (thread.startsWith("C1 Compiler") || thread.startsWith("C2 Compiler")) {
            return "JIT compilers";
        }
        if (thread.startsWith("ForkJoinPool") || thread.startsWith("loomgate-") || thread.startsWith("HTTP-Dispatcher")
                || thread.contains("Poller") || thread.startsWith("pool-")) {
            return REQUESTS;
        }
        return "rest of the JVM";
    }

    /** The part of loomgate whose work a request thread's sample is: its innermost classified frame. */
    static String component(List<Frame> frames) {
        for (Frame f : frames) {
            String m = f.method();
            if (m.startsWith("io.loomgate.upstream.") || m.startsWith("io.loomgate.client.")) {
                return "HTTP client (upstream calls)";
            }
            if (m.startsWith("io.loomgate.edge.server.") || m.startsWith("sun.net.httpserver.")) {
                return "server (connections, heads, bodies)";
            }
            if (m.startsWith("io.loomgate.core.")) {
                return "engine (scopes, calls, policies)";
            }
            if (m.startsWith("io.loomgate.observe.")) {
                return "metrics and logs";
            }
            if (m.startsWith("io.loomgate.") && !m.startsWith("io.loomgate.http1.") && !m.startsWith("io.loomgate.http.")
                    && !m.startsWith("io.loomgate.json.")) {
                return "pipeline and routes";
            }
        }
        for (Frame f : frames) {
            String m = f.method();
            if (m.contains("Poller")) {
                return "virtual threads' I/O poller";
            }
            if (m.startsWith("java.util.concurrent.ForkJoin") || m.startsWith("java.lang.VirtualThread")
                    || m.startsWith("jdk.internal.vm.Continuation")) {
                return "virtual-thread scheduling";
            }
        }
        // libc has no frame pointers, so a futex call's chain stops there: on a request thread it is
        // the scheduler parking an idle carrier or waking one for a virtual thread made runnable.
        return frames.stream().anyMatch(f -> f.method().contains("futex") || f.method().startsWith("pthread_cond"))
                ? "virtual-thread scheduling" : "other";
    }

    /** What ran at the sample: the kernel, the JVM's own code, or Java code (with the JDK's). */
    static String ran(List<Frame> frames) {
        if (frames.isEmpty()) {
            return "other";
        }
        Frame leaf = frames.getFirst();
        return leaf.kernel() ? "kernel" : leaf.jvm() ? "JVM runtime" : "Java and libc";
    }

    /** The system call a kernel sample is in, named by the innermost user-space frame that made it. */
    static String syscall(List<Frame> frames) {
        for (Frame f : frames) {
            if (f.kernel()) {
                if (f.method().startsWith("asm_sysvec") || f.method().startsWith("asm_common_interrupt")) {
                    return "interrupts (timer, network, rescheduling)";
                }
                continue;
            }
            String m = f.method();
            if (m.contains("libc_write") || m.equals("write") || m.endsWith("SocketDispatcher.write0")) {
                return "write";
            }
            if (m.equals("read") || m.contains("libc_read") || m.contains("recv") || m.endsWith("SocketDispatcher.read0")) {
                return "read";
            }
            if (m.startsWith("pthread_cond_signal") || m.contains("lll_lock_wake") || m.contains("futex_wake")) {
                return "futex wake (a parked thread is woken)";
            }
            if (m.contains("futex") || m.startsWith("pthread_cond")) {
                return "futex wait (a thread parks)";
            }
            return m.length() > 60 ? m.substring(0, 60) : m;
        }
        return frames.stream().anyMatch(f -> f.method().contains("futex")) ? "futex (chain ends in the kernel)" : "other";
    }

    public int total() {
        return total;
    }

    Map<String, Integer> threads() {
        return threads;
    }

    Map<String, Map<String, Integer>> components() {
        return components;
    }

    Map<String, Integer> syscalls() {
        return syscalls;
    }

    /**
     * The breakdown as Markdown: shares of all samples and, given the CPU time of one request
     * ({@code cpuMicrosPerRequest} above 0), each share in microseconds of it.
     */
    public String markdown(double cpuMicrosPerRequest) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%d samples.%n%n", total));
        sb.append(table("by thread", threads, cpuMicrosPerRequest));
        Map<String, Integer> byComponent = new LinkedHashMap<>();
        components.forEach((c, ran) -> byComponent.put(c, ran.values().stream().mapToInt(Integer::intValue).sum()));
        sb.append(table("request threads, by whose work (innermost loomgate frame)", byComponent, cpuMicrosPerRequest));
        Map<String, Integer> byRan = new TreeMap<>();
        components.values().forEach(ran -> ran.forEach((k, v) -> byRan.merge(k, v, Integer::sum)));
        sb.append(table("request threads, by what ran", byRan, cpuMicrosPerRequest));
        sb.append(table("request threads in the kernel, by system call", syscalls, cpuMicrosPerRequest));
        sb.append(table("hottest leaf frames (all threads, top 15)", top(leaves, 15), cpuMicrosPerRequest));
        return sb.toString();
    }

    private String table(String title, Map<String, Integer> counts, double perRequest) {
        StringBuilder sb = new StringBuilder("| " + title + " | share | µs per request |\n|---|---:|---:|\n");
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .forEach(e -> {
                    double share = total == 0 ? 0 : (double) e.getValue() / total;
                    sb.append(String.format(Locale.ROOT, "| %s | %.1f%% | %s |%n", e.getKey().replace("|", "\\|"), share * 100,
                            perRequest > 0 ? String.format(Locale.ROOT, "%.1f", share * perRequest) : "-"));
                });
        return sb.append('\n').toString();
    }

    private static Map<String, Integer> top(Map<String, Integer> counts, int n) {
        Map<String, Integer> top = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())).limit(n)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }

    /** {@code perf script | java ... PerfBreakdown [CPU µs per request]}: prints the breakdown. */
    public static void main(String[] args) {
        double perRequest = args.length > 0 ? Double.parseDouble(args[0]) : 0;
        List<String> lines = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                java.nio.charset.StandardCharsets.UTF_8)).lines().toList();
        System.out.print(of(lines).markdown(perRequest));
    }
}
