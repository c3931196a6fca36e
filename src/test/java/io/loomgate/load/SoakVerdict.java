package io.loomgate.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Judges a soak run: no 500s, only the statuses the workload can cause, no socket errors, every
 * service call over afterwards, and memory (RSS, and heap after a full GC) within 10% of its level
 * after warm-up. Pure: built from the snapshots and wrk's report, so it is tested on fixed input.
 */
public final class SoakVerdict {

    static final double MEMORY_TOLERANCE = 0.10;
    private static final Set<Integer> EXPECTED = Set.of(200, 502, 504);

    /**
     * The server at one moment.
     *
     * @param rssKb           resident set size
     * @param heapAfterGcBytes heap in use right after a full GC
     * @param served500       500 answers the server counted since start
     * @param calls           service calls by outcome, all services together
     */
    public record Snapshot(long rssKb, long heapAfterGcBytes, long served500, Map<String, Long> calls) {
    }

    /** wrk's side of the run. */
    public record Load(long requests, double seconds, Map<String, Long> errors, Map<Integer, Long> statuses) {
    }

    /** One line of the summary. */
    public record Check(String what, String measured, boolean ok) {
    }

    private final List<Check> checks = new ArrayList<>();
    private final List<String> facts = new ArrayList<>();

    public SoakVerdict(Snapshot warm, Snapshot after, Load load, boolean idle, long idleMs) {
        facts.add(String.format(Locale.ROOT, "requests tried: %d in %.0f s (%.0f/s)", load.requests(), load.seconds(),
                load.requests() / load.seconds()));
        facts.add("answers: " + new TreeMap<>(load.statuses()).entrySet().stream()
                .map(e -> e.getKey() + " x" + e.getValue()).collect(Collectors.joining(", ")));
        Map<String, Long> injected = new TreeMap<>();
        after.calls().forEach((outcome, n) -> injected.put(outcome, n - warm.calls().getOrDefault(outcome, 0L)));
        facts.add("service calls by outcome: " + injected.entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")));

        long wrk500 = load.statuses().getOrDefault(500, 0L);
        long server500 = after.served500() - warm.served500();
        checks.add(new Check("no 500s", wrk500 + " seen by wrk, " + server500 + " counted by loomgate", wrk500 == 0 && server500 == 0));
        Set<Integer> unexpected = new java.util.TreeSet<>(load.statuses().keySet());
        unexpected.removeAll(EXPECTED);
        checks.add(new Check("only 200, 502 and 504", unexpected.isEmpty() ? "yes" : "also " + unexpected, unexpected.isEmpty()));
        long socket = load.errors().entrySet().stream().filter(e -> !e.getKey().equals("status"))
                .mapToLong(Map.Entry::getValue).sum();
        checks.add(new Check("no socket errors (connect, read, write, timeout)", String.valueOf(socket), socket == 0));
        checks.add(new Check("every service call over afterwards", idle ? "0 in flight after " + idleMs + " ms" : "still running",
                idle));
        checks.add(within("RSS", warm.rssKb() / 1024.0, after.rssKb() / 1024.0, "MB"));
        checks.add(within("heap after GC", warm.heapAfterGcBytes() / 1048576.0, after.heapAfterGcBytes() / 1048576.0, "MB"));
    }

    private static Check within(String what, double warm, double after, String unit) {
        double change = warm == 0 ? 0 : (after - warm) / warm;
        return new Check(what + " within 10% of its level after warm-up",
                String.format(Locale.ROOT, "%.1f %s -> %.1f %s (%+.1f%%)", warm, unit, after, unit, change * 100),
                change <= MEMORY_TOLERANCE);
    }

    public List<Check> checks() {
        return checks;
    }

    public boolean passed() {
        return checks.stream().allMatch(Check::ok);
    }

    /** The summary table, in Markdown, with the facts above it. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        facts.forEach(f -> sb.append("- ").append(f).append('\n'));
        sb.append("\n| check | measured | result |\n|---|---|---|\n");
        for (Check c : checks) {
            sb.append("| ").append(c.what()).append(" | ").append(c.measured()).append(" | ")
                    .append(c.ok() ? "ok" : "**MISSED**").append(" |\n");
        }
        return sb.append(passed() ? "\nsoak: passed\n" : "\nsoak: FAILED\n").toString();
    }
}
