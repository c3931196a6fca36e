package io.loomgate.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The saturation scenario's report: loomgate on virtual threads against the bare JDK server, both
 * capped at 512 MB of heap, at c=1000, 4000 and 10,000, with the heap each request in flight holds
 * after a GC, then the targets of the performance issue, each met or missed.
 *
 * @param rows    one per run, in the order they ran
 * @param machine the machine and the command
 */
record SaturationReport(List<Row> rows, Map<String, Object> machine) {

    /**
     * @param heapAfterGcKb heap in use right after a GC halfway through the run
     * @param heapAtRestKb  the same before any load
     * @param inFlight      requests in flight at that moment (loomgate's count; the connections for bare)
     * @param serverMaxMs   loomgate's slowest answer on the route since it started, warm-up included
     */
    record Row(RunResult run, long heapAfterGcKb, long heapAtRestKb, long inFlight, double serverMaxMs) {

        /** KB of heap per request in flight, over the heap at rest. */
        double kbPerRequest() {
            return inFlight <= 0 ? Double.NaN : (heapAfterGcKb - heapAtRestKb) / (double) inFlight;
        }

        static Row of(RunResult run, Map<String, Object> json) {
            return new Row(run, number(json, "heapAfterGcKb"), number(json, "heapAtRestKb"), number(json, "inFlight"),
                    json.get("serverMaxMs") instanceof Number n ? n.doubleValue() : 0);
        }

        private static long number(Map<String, Object> json, String key) {
            return json.get(key) instanceof Number n ? n.longValue() : 0;
        }
    }

    String table() {
        StringBuilder sb = new StringBuilder("""
                | endpoint | server | conn | rps (2xx) | vs bare | p50 ms | p99 ms | p99 vs bare | errors | peak RSS | heap after GC | in flight | KB per request |
                |---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|
                """);
        for (Row row : rows) {
            RunResult r = row.run();
            Optional<Row> bare = bareFor(row);
            sb.append(String.format(Locale.ROOT, "| `%s` | %s | %,d | %,.0f | %s | %.1f | %.1f | %s | %s | %d MB | %d MB | %,d | %s |%n",
                    r.endpoint(), r.mode().equals("bare") ? "bare" : "loomgate", r.connections(), r.okRps(),
                    bare.map(b -> String.format(Locale.ROOT, "%.2f", r.okRps() / b.run().okRps())).orElse("-"),
                    r.p50Ms(), r.p99Ms(),
                    bare.map(b -> String.format(Locale.ROOT, "%.2fx", r.p99Ms() / b.run().p99Ms())).orElse("-"),
                    LoadReport.errors(r), r.peakRssKb() / 1024, row.heapAfterGcKb() / 1024, row.inFlight(),
                    Double.isNaN(row.kbPerRequest()) ? "-" : String.format(Locale.ROOT, "%.1f", row.kbPerRequest())));
        }
        return sb.toString();
    }

    /** The targets of the performance issue, against this run's bare server. */
    List<LoadReport.Target> targets() {
        List<LoadReport.Target> targets = new ArrayList<>();
        for (int c : new int[] {1000, 4000, 10_000}) {
            double rpsFloor = c == 1000 ? 0.97 : 0.9;
            double p99Ceiling = c == 1000 ? 1.1 : 1.25;
            targets.add(loomgate("/block", c).flatMap(l -> bareFor(l).map(b -> {
                double share = l.run().okRps() / b.run().okRps();
                double p99 = l.run().p99Ms() / b.run().p99Ms();
                boolean met = share >= rpsFloor && p99 <= p99Ceiling && l.run().totalErrors() == 0;
                return new LoadReport.Target(String.format(Locale.ROOT,
                        "`/block` c=%,d, heap 512 MB: >= %.2f of bare's rps, p99 <= %.2fx bare's, zero errors", c, rpsFloor, p99Ceiling),
                        String.format(Locale.ROOT, "%.2f, p99 %.2fx (%.0f against %.0f ms), %s", share, p99, l.run().p99Ms(),
                                b.run().p99Ms(), LoadReport.errors(l.run())), Optional.of(met));
            })).orElse(LoadReport.notMeasured("`/block` c=" + c + " against bare")));
        }
        targets.add(loomgate("/aggregate", 10_000).map(a -> {
            boolean met = a.run().totalErrors() == 0 && a.serverMaxMs() <= 2_050;
            return new LoadReport.Target("`/aggregate` c=10,000: zero errors, no answer past its 2 s deadline (50 ms slack)",
                    String.format(Locale.ROOT, "%s, slowest answer %.0f ms", LoadReport.errors(a.run()), a.serverMaxMs()),
                    Optional.of(met));
        }).orElse(LoadReport.notMeasured("`/aggregate` c=10,000")));
        targets.add(loomgate("/block", 10_000).map(l -> new LoadReport.Target(
                "heap per request in flight after a GC, `/block` c=10,000: <= 20 KB",
                String.format(Locale.ROOT, "%.1f KB (%d MB after GC, %,d in flight)", l.kbPerRequest(), l.heapAfterGcKb() / 1024,
                        l.inFlight()), Optional.of(l.kbPerRequest() <= 20)))
                .orElse(LoadReport.notMeasured("heap per request in flight at c=10,000")));
        return targets;
    }

    String markdown() {
        StringBuilder sb = new StringBuilder("# loomgate at saturation\n\n");
        sb.append("Machine: ").append(machine.getOrDefault("cores", "?")).append(" cores, ")
                .append(machine.getOrDefault("memory", "?")).append(", ").append(machine.getOrDefault("jdk", "?"))
                .append(", ").append(machine.getOrDefault("date", "?")).append("; ")
                .append(machine.getOrDefault("seconds", "?")).append(" s per run, heap capped at ")
                .append(machine.getOrDefault("heapCap", "?")).append(" for both servers; `")
                .append(machine.getOrDefault("command", "")).append("`\n\n");
        sb.append(table()).append("\n## Targets\n\n").append(LoadReport.targetsTable(targets()));
        return sb.toString();
    }

    private Optional<Row> loomgate(String endpoint, int c) {
        return rows.stream().filter(r -> r.run().mode().equals("virtual") && r.run().endpoint().equals(endpoint)
                && r.run().connections() == c).findFirst();
    }

    private Optional<Row> bareFor(Row row) {
        if (row.run().mode().equals("bare") || !row.run().endpoint().equals("/block")) {
            return Optional.empty();
        }
        return rows.stream().filter(r -> r.run().mode().equals("bare") && r.run().connections() == row.run().connections())
                .findFirst();
    }
}
