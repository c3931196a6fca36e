package io.loomgate.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code scripts/load --scenario abuse}: ordinary traffic (wrk) alone, then the same traffic while
 * a stranger ({@link Attacker}) holds stalled connections and floods a rate-limited route with new
 * keys; what the ordinary traffic keeps of its throughput, its errors, and the gateway's peak RSS
 * against the heap it was given.
 */
public final class AbuseReport {

    private final List<RunResult> runs;
    private final Map<String, Object> attacker;
    private final Map<String, Object> machine;

    public AbuseReport(List<RunResult> runs, Map<String, Object> attacker, Map<String, Object> machine) {
        this.runs = List.copyOf(runs);
        this.attacker = Map.copyOf(attacker);
        this.machine = Map.copyOf(machine);
    }

    private Optional<RunResult> run(String mode) {
        return runs.stream().filter(r -> r.mode().equals(mode)).findFirst();
    }

    public String table() {
        StringBuilder sb = new StringBuilder("| ordinary traffic | c | answers/s (2xx) | p50 ms | p99 ms | errors | gateway peak RSS |\n"
                + "|---|---|---|---|---|---|---|\n");
        for (String mode : List.of("baseline", "attack")) {
            run(mode).ifPresent(r -> sb.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.1f | %.1f | %s | %d MB |%n",
                    mode.equals("baseline") ? "alone" : "under attack", r.connections(), r.okRps(), r.p50Ms(), r.p99Ms(),
                    LoadReport.errors(r), r.peakRssKb() / 1024)));
        }
        return sb.toString();
    }

    /** What the attacker did and met. */
    public String attack() {
        return String.format(Locale.ROOT, "The attacker opened %s stalled connections (%s more were refused before they"
                        + " opened), of which the gateway closed %s before the run ended; it sent %s requests with a new %s-byte"
                        + " rate-limit key each, answered %s, with %s connection errors.",
                attacker.get("stalledOpened"), attacker.get("stalledNotOpened"), attacker.get("stalledClosedByServer"),
                attacker.get("keysSent"), attacker.get("keyBytes"), attacker.get("keyStatuses"), attacker.get("keyErrors"));
    }

    public List<LoadReport.Target> targets() {
        List<LoadReport.Target> targets = new ArrayList<>();
        Optional<RunResult> alone = run("baseline");
        Optional<RunResult> attacked = run("attack");
        if (alone.isEmpty() || attacked.isEmpty()) {
            targets.add(new LoadReport.Target("ordinary traffic keeps 0.8 of its throughput", "not measured", Optional.empty()));
            return targets;
        }
        double ratio = attacked.get().okRps() / Math.max(alone.get().okRps(), 0.001);
        targets.add(new LoadReport.Target("ordinary traffic keeps at least 0.8 of its throughput under attack",
                String.format(Locale.ROOT, "%.0f/s against %.0f/s alone: %.2f; p99 %.1f ms against %.1f ms", attacked.get().okRps(),
                        alone.get().okRps(), ratio, attacked.get().p99Ms(), alone.get().p99Ms()), Optional.of(ratio >= 0.8)));
        long errors = attacked.get().totalErrors();
        targets.add(new LoadReport.Target("no error for the ordinary traffic under attack", errors + " errors ("
                + LoadReport.errors(attacked.get()) + ")", Optional.of(errors == 0)));
        long heapMb = ((Number) machine.getOrDefault("heapMb", 0)).longValue();
        long peakMb = Math.max(alone.get().peakRssKb(), attacked.get().peakRssKb()) / 1024;
        targets.add(new LoadReport.Target("the gateway's peak RSS stays under the heap it was given",
                String.format(Locale.ROOT, "%d MB peak RSS with -Xmx%dm", peakMb, heapMb),
                heapMb > 0 ? Optional.of(peakMb < heapMb) : Optional.empty()));
        return targets;
    }

    public String markdown() {
        return "# loomgate abuse scenario\n\nMachine: " + machine.getOrDefault("cores", "?") + " cores, "
                + machine.getOrDefault("memory", "?") + ", " + machine.getOrDefault("jdk", "?") + "; "
                + machine.getOrDefault("date", "") + "; wrk and the attacker on the same machine, "
                + machine.getOrDefault("seconds", "?") + " s per run. Command: `"
                + machine.getOrDefault("command", "scripts/load --scenario abuse") + "`\n\n" + table() + "\n" + attack()
                + "\n\n## Targets\n\n" + LoadReport.targetsList(targets());
    }
}
