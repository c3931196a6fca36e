package io.loomgate.load;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The report of {@code scripts/load --scenario replicas}: for each run (loomgate's proxy, its
 * fan-out, nginx), the answers, failures and p99 second by second while a replica is killed and
 * restarted; the totals; and the two targets: fewer failed requests than nginx over the run, and
 * the p99 back within 1.2x of its level before the kill in under 5 s.
 */
final class ReplicasReport {

    /** One second of one run. */
    record Second(int second, long ok, long notOk, long errors, double p50Ms, double p99Ms) {
        long failed() {
            return notOk + errors;
        }
    }

    /** One run: its name ({@code proxy}, {@code fan-out}, {@code nginx}), its connections and its seconds. */
    record Run(String name, int connections, List<Second> seconds) {

        long ok() {
            return seconds.stream().mapToLong(Second::ok).sum();
        }

        long failed() {
            return seconds.stream().mapToLong(Second::failed).sum();
        }

        /** The median of the per-second p99s before the kill, the first second (warming connections) left out. */
        double p99Before(int killAt) {
            List<Double> before = seconds.stream().filter(s -> s.second() >= 1 && s.second() < killAt).map(Second::p99Ms)
                    .sorted().toList();
            return before.isEmpty() ? 0 : before.get(before.size() / 2);
        }

        /**
         * Seconds from the kill until the p99 is back within 1.2x of before and stays there until
         * the restart; empty when it never is.
         */
        Optional<Integer> recovery(int killAt, int backAt) {
            double limit = 1.2 * p99Before(killAt);
            for (int t = killAt; t < backAt; t++) {
                int from = t;
                boolean stays = seconds.stream().filter(s -> s.second() >= from && s.second() < backAt).allMatch(s -> s.p99Ms() <= limit);
                if (stays) {
                    return Optional.of(t - killAt);
                }
            }
            return Optional.empty();
        }

        @SuppressWarnings("unchecked")
        static Run of(String name, Map<String, Object> json) {
            List<Second> s = new ArrayList<>();
            for (Map<String, Object> m : (List<Map<String, Object>>) json.get("seconds")) {
                s.add(new Second(((Number) m.get("second")).intValue(), ((Number) m.get("ok")).longValue(),
                        ((Number) m.get("notOk")).longValue(), ((Number) m.get("errors")).longValue(),
                        ((Number) m.get("p50Ms")).doubleValue(), ((Number) m.get("p99Ms")).doubleValue()));
            }
            return new Run(name, ((Number) json.get("connections")).intValue(), List.copyOf(s));
        }
    }

    private final List<Run> runs;
    private final Map<String, Object> machine;
    private final int killAt;
    private final int backAt;

    ReplicasReport(List<Run> runs, Map<String, Object> machine) {
        this.runs = List.copyOf(runs);
        this.machine = new LinkedHashMap<>(machine);
        this.killAt = ((Number) machine.getOrDefault("killAt", 5)).intValue();
        this.backAt = ((Number) machine.getOrDefault("backAt", 15)).intValue();
    }

    String table() {
        StringBuilder sb = new StringBuilder("| run | answered 2xx | failed (not 2xx or no answer) | p99 before the kill (ms) "
                + "| worst p99 after (ms) | p99 within 1.2x of before after |\n|---|---:|---:|---:|---:|---:|\n");
        for (Run r : runs) {
            double worst = r.seconds().stream().filter(s -> s.second() >= killAt).mapToDouble(Second::p99Ms).max().orElse(0);
            sb.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %.1f | %.1f | %s |%n", r.name(), r.ok(), r.failed(),
                    r.p99Before(killAt), worst, r.recovery(killAt, backAt).map(s -> s + " s").orElse("not before the restart")));
        }
        return sb.toString();
    }

    List<LoadReport.Target> targets() {
        List<LoadReport.Target> targets = new ArrayList<>();
        Optional<Run> nginx = runs.stream().filter(r -> r.name().equals("nginx")).findFirst();
        Optional<Run> proxy = runs.stream().filter(r -> r.name().equals("proxy")).findFirst();
        if (nginx.isPresent() && proxy.isPresent()) {
            long ours = proxy.get().failed();
            long theirs = nginx.get().failed();
            targets.add(new LoadReport.Target("fewer failed requests than nginx over the run (the proxy)",
                    ours + " failed against nginx's " + theirs + (ours == 0 && theirs == 0 ? " (neither failed one: fewer cannot be)" : ""),
                    Optional.of(ours < theirs)));
        } else {
            targets.add(new LoadReport.Target("fewer failed requests than nginx over the run", "no nginx run", Optional.empty()));
        }
        for (Run r : runs) {
            if (r.name().equals("nginx")) {
                continue;
            }
            Optional<Integer> back = r.recovery(killAt, backAt);
            targets.add(new LoadReport.Target("the " + r.name() + "'s p99 back within 1.2x of before in under 5 s",
                    back.map(s -> s + " s after the kill").orElse("not before the restart"), Optional.of(back.isPresent() && back.get() < 5)));
        }
        return targets;
    }

    String markdown() {
        StringBuilder sb = new StringBuilder("# A replica killed and restarted\n\n");
        sb.append(String.format(Locale.ROOT, "Three bundled backends; c=%s for %d s against each run; the second backend killed "
                + "(SIGKILL) at %d s and started again on its port at %d s. Machine: %s cores, %s, %s; %s.%n%n",
                runs.isEmpty() ? "?" : runs.getFirst().connections(), runs.isEmpty() ? 0 : runs.getFirst().seconds().size(),
                killAt, backAt, machine.getOrDefault("cores", "?"), machine.getOrDefault("memory", "?"),
                machine.getOrDefault("jdk", "?"), machine.getOrDefault("nginx", "no nginx")));
        sb.append(table()).append('\n');
        for (LoadReport.Target t : targets()) {
            sb.append("- ").append(t.met().map(m -> m ? "met: " : "MISSED: ").orElse("not checked: ")).append(t.what()).append(": ")
                    .append(t.measured()).append('\n');
        }
        sb.append("\n![rps, failures and p99 per second](report.svg)\n\n## Second by second\n\n");
        for (Run r : runs) {
            sb.append("### ").append(r.name()).append("\n\n| s | 2xx | failed | p50 (ms) | p99 (ms) |\n|---:|---:|---:|---:|---:|\n");
            for (Second s : r.seconds()) {
                sb.append(String.format(Locale.ROOT, "| %d | %,d | %,d | %.1f | %.1f |%n", s.second(), s.ok(), s.failed(), s.p50Ms(),
                        s.p99Ms()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    String svg() {
        return ReplicasChart.svg(runs, killAt, backAt,
                "jdk " + machine.getOrDefault("jdk", "?") + ", " + machine.getOrDefault("cores", "?") + " cores, "
                        + machine.getOrDefault("nginx", "no nginx") + ", " + machine.getOrDefault("date", ""));
    }
}
