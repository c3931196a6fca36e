package io.loomgate.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * The side-by-side report of a load run: every run with its Little's-law bound (connections /
 * designed latency), its efficiency (2xx rps / bound), and its share of the bare server doing the
 * same waiting at the same concurrency, then the performance targets, each met or missed by how much.
 */
public final class LoadReport {

    /** One run with the figures derived from it. */
    public record Row(RunResult run, OptionalDouble bound, OptionalDouble efficiency, OptionalDouble shareOfBare) {
    }

    /** One performance target, checked against the runs. */
    public record Target(String what, String measured, Optional<Boolean> met) {
    }

    private final List<Row> rows;
    private final Map<String, Object> machine;

    private LoadReport(List<Row> rows, Map<String, Object> machine) {
        this.rows = rows;
        this.machine = machine;
    }

    public static LoadReport of(List<RunResult> runs, Map<String, Object> machine) {
        List<Row> rows = new ArrayList<>();
        for (RunResult r : runs) {
            OptionalDouble bound = DesignedLatency.of(r.endpoint())
                    .map(d -> OptionalDouble.of(r.connections() * 1000.0 / d.toMillis()))
                    .orElse(OptionalDouble.empty());
            OptionalDouble efficiency = bound.isPresent() ? OptionalDouble.of(r.okRps() / bound.getAsDouble())
                    : OptionalDouble.empty();
            OptionalDouble share = r.mode().equals("bare") ? OptionalDouble.empty()
                    : find(runs, DesignedLatency.bareEquivalent(r.endpoint()), "bare", r.connections())
                            .map(b -> OptionalDouble.of(r.okRps() / b.okRps())).orElse(OptionalDouble.empty());
            rows.add(new Row(r, bound, efficiency, share));
        }
        return new LoadReport(rows, machine);
    }

    public List<Row> rows() {
        return rows;
    }

    /** The report's table, as Markdown; also what {@code scripts/load} prints at the end. */
    public String table() {
        StringBuilder sb = new StringBuilder();
        sb.append("| endpoint | mode | conn | rps (2xx) | bound | efficiency | share of bare | p50 ms | p99 ms | errors | peak RSS |\n");
        sb.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
        for (Row row : rows) {
            RunResult r = row.run();
            sb.append(String.format(Locale.ROOT, "| `%s` | %s | %d | %.0f | %s | %s | %s | %.1f | %.1f | %s | %s |%n",
                    r.endpoint(), r.mode(), r.connections(), r.okRps(), fixed(row.bound(), "%.0f"),
                    fixed(row.efficiency(), "%.2f"), fixed(row.shareOfBare(), "%.2f"), r.p50Ms(), r.p99Ms(),
                    errors(r), r.peakRssKb() > 0 ? r.peakRssKb() / 1024 + " MB" : "-"));
        }
        return sb.toString();
    }

    /** The whole report: machine, table, targets. */
    public String markdown() {
        StringBuilder sb = new StringBuilder("# loomgate load report\n\n");
        sb.append("- date: ").append(machine.getOrDefault("date", "?")).append('\n');
        sb.append("- machine: ").append(machine.getOrDefault("cores", "?")).append(" cores, ")
                .append(machine.getOrDefault("memory", "?")).append(", ").append(machine.getOrDefault("os", "?")).append('\n');
        sb.append("- JDK: ").append(machine.getOrDefault("jdk", "?")).append("; JVM flags: `")
                .append(machine.getOrDefault("jvmFlags", "?")).append("`\n");
        sb.append("- load: ").append(machine.getOrDefault("wrk", "wrk")).append(", ")
                .append(machine.getOrDefault("wrkThreads", "?")).append(" threads, `--timeout 10s`, ")
                .append(machine.getOrDefault("seconds", "?")).append(" s per run after a warm-up, on the same machine over loopback\n");
        sb.append("- command: `").append(machine.getOrDefault("command", "scripts/load")).append("`\n\n");
        sb.append("`rps (2xx)` counts successful answers only; `bound` is connections / the endpoint's designed latency ")
                .append("(Little's law); `efficiency` is rps / bound; `share of bare` is rps / the bare JDK server's rps ")
                .append("for the same waiting (`/block?ms=N`, or `/hello`) at the same concurrency.\n\n");
        sb.append(table()).append('\n');
        return sb.append("## Targets\n\n").append(targetsTable(targets())).toString();
    }

    /** The targets as a Markdown table: target, measured, met ({@code yes}, {@code **no**} or not measured). */
    static String targetsTable(List<Target> targets) {
        StringBuilder sb = new StringBuilder("| target | measured | met |\n|---|---|---|\n");
        for (Target t : targets) {
            sb.append("| ").append(t.what()).append(" | ").append(t.measured()).append(" | ")
                    .append(t.met().map(m -> m ? "yes" : "**no**").orElse("not measured")).append(" |\n");
        }
        return sb.toString();
    }

    /** The targets as a Markdown list: {@code - **met**: what: measured}. */
    static String targetsList(List<Target> targets) {
        StringBuilder sb = new StringBuilder();
        for (Target t : targets) {
            sb.append("- ").append(t.met().map(m -> m ? "**met**" : "**missed**").orElse("not checked")).append(": ")
                    .append(t.what()).append(": ").append(t.measured()).append('\n');
        }
        return sb.toString();
    }

    /** The performance targets of the main matrix, checked. */
    public List<Target> targets() {
        List<Target> targets = new ArrayList<>();
        Optional<Row> block = row("/block", "virtual", 1000);
        targets.add(block.map(b -> {
            double share = b.shareOfBare().orElse(0);
            boolean met = share >= 0.95 && b.run().p99Ms() <= 350 && b.run().totalErrors() == 0;
            return new Target("`/block` virtual c=1000: >= 0.95 of bare `/block?ms=300`, p99 <= 350 ms, zero errors",
                    String.format(Locale.ROOT, "%.2f of bare, p99 %.1f ms, %s", share, b.run().p99Ms(), errors(b.run())),
                    Optional.of(met));
        }).orElse(missing("`/block` virtual c=1000 against bare")));
        Optional<Row> platform = row("/block", "platform", 1000);
        targets.add(block.flatMap(v -> platform.map(p -> {
            double ratio = v.run().okRps() / p.run().okRps();
            return new Target("`/block` c=1000: virtual >= 4.5x platform (pool 200); ideal 5x",
                    String.format(Locale.ROOT, "%.2fx", ratio), Optional.of(ratio >= 4.5));
        })).orElse(missing("`/block` c=1000 virtual vs platform")));
        targets.add(efficiencyTarget("/aggregate", 0.9, true));
        targets.add(efficiencyTarget("/first-success", 0.9, false));
        targets.add(row("/health", "virtual", 100).map(h -> {
            double share = h.shareOfBare().orElse(0);
            return new Target("`/health` c=100: >= 0.8 of bare `/hello`", String.format(Locale.ROOT, "%.2f", share),
                    Optional.of(share >= 0.8));
        }).orElse(missing("`/health` c=100 against bare `/hello`")));
        targets.add(rows.stream().filter(r -> r.run().endpoint().equals("/block") && r.run().mode().equals("virtual")
                        && r.run().connections() >= 4000).findFirst()
                .map(s -> new Target("`/block` virtual c=" + s.run().connections() + ": zero errors; RSS at peak",
                        String.format(Locale.ROOT, "%s, peak RSS %d MB, %.0f rps", errors(s.run()), s.run().peakRssKb() / 1024,
                                s.run().okRps()), Optional.of(s.run().totalErrors() == 0)))
                .orElse(missing("`/block` virtual c=4000")));
        return targets;
    }

    private Target efficiencyTarget(String endpoint, double floor, boolean zeroErrors) {
        return row(endpoint, "virtual", 1000).map(a -> {
            double eff = a.efficiency().orElse(0);
            boolean met = eff >= floor && (!zeroErrors || a.run().totalErrors() == 0);
            String bound = fixed(a.bound(), "%.0f");
            return new Target("`" + endpoint + "` c=1000: >= " + floor + " of its bound (" + bound + " rps)"
                    + (zeroErrors ? ", zero errors" : ""),
                    String.format(Locale.ROOT, "%.2f (%.0f rps), %s", eff, a.run().okRps(), errors(a.run())), Optional.of(met));
        }).orElse(missing("`" + endpoint + "` virtual c=1000"));
    }

    private static Target missing(String what) {
        return notMeasured(what);
    }

    /** A target this run has no row for, saying so (a --quick run, or a scenario that leaves the row out). */
    public static Target notMeasured(String what) {
        return new Target(what, "not checked: this run has no such row (scripts/load --quick runs only c=400; "
                + "the full run measures every row)", Optional.empty());
    }

    private Optional<Row> row(String endpoint, String mode, int connections) {
        return rows.stream().filter(r -> r.run().endpoint().equals(endpoint) && r.run().mode().equals(mode)
                && r.run().connections() == connections).findFirst();
    }

    private static Optional<RunResult> find(List<RunResult> runs, String endpoint, String mode, int connections) {
        return runs.stream().filter(r -> r.endpoint().equals(endpoint) && r.mode().equals(mode)
                && r.connections() == connections).findFirst();
    }

    private static String fixed(OptionalDouble v, String format) {
        return v.isPresent() ? String.format(Locale.ROOT, format, v.getAsDouble()) : "-";
    }

    static String errors(RunResult r) {
        if (r.totalErrors() == 0) {
            return "0";
        }
        return r.errors().entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }
}
