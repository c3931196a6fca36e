package io.loomgate.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code scripts/load --scenario server}: loomgate's own server against the JDK's, each serving the
 * same routes in turn, beside nginx and the bare server program on each: CPU per request (from the
 * process's CPU time over the run), p99, peak RSS, and what 10,000 idle connections cost.
 *
 * @param runs    the wrk runs, in order
 * @param cpu     per run, in the same order: {@code name}, {@code cpuMs} (the server's CPU time over
 *                the run) and {@code warmSeconds} (its load before the run)
 * @param idle    per server: {@code server}, {@code connections}, {@code answered}, {@code rssBeforeKb}
 *                and {@code rssHeldKb} (the process's RSS at rest and with them held idle)
 * @param restart per server: {@code server}, {@code jitMs}, {@code gcMs} and {@code totalMs}, the
 *                restarted process's CPU by kind of thread up to the end of its first 5 s under load.
 *                Its later runs ({@code restart-KIND}, 2 s each) carry the seconds since it said it
 *                was listening as their warm-up.
 */
public record ServerReport(List<RunResult> runs, List<Map<String, Object>> cpu, List<Map<String, Object>> idle,
                           List<Map<String, Object>> restart, Map<String, Object> machine) {

    /** One run with the CPU beside it. */
    record Row(RunResult run, double cpuMicrosPerRequest, int warmSeconds) {
    }

    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            RunResult r = runs.get(i);
            Map<String, Object> c = i < cpu.size() ? cpu.get(i) : Map.of();
            double ms = ((Number) c.getOrDefault("cpuMs", 0)).doubleValue();
            rows.add(new Row(r, r.requests() == 0 ? 0 : ms * 1000 / r.requests(),
                    ((Number) c.getOrDefault("warmSeconds", 0)).intValue()));
        }
        return rows;
    }

    public String table() {
        StringBuilder sb = new StringBuilder("| server | endpoint | c | warmed | answers/s (2xx) | p99 ms | errors | CPU µs/request | peak RSS MB |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows()) {
            RunResult r = row.run();
            sb.append(String.format(Locale.ROOT, "| %s | `%s` | %d | %d s | %.0f | %.1f | %s | %.1f | %.0f |%n", r.mode(),
                    r.endpoint(), r.connections(), row.warmSeconds(), r.okRps(), r.p99Ms(), LoadReport.errors(r),
                    row.cpuMicrosPerRequest(), r.peakRssKb() / 1024.0));
        }
        sb.append("\n| server | idle connections held | answered | RSS at rest MB | RSS holding them MB | above rest MB |\n"
                + "|---|---|---|---|---|---|\n");
        for (Map<String, Object> i : idle) {
            double before = num(i, "rssBeforeKb") / 1024;
            double held = num(i, "rssHeldKb") / 1024;
            sb.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f | %.0f |%n", i.get("server"),
                    num(i, "connections"), num(i, "answered"), before, held, held - before));
        }
        return sb.toString();
    }

    public List<LoadReport.Target> targets() {
        List<LoadReport.Target> t = new ArrayList<>();
        cpuTarget(t, "the bare server program's CPU per /hello on loomgate's server ≤ 10 µs (the JDK's: 16–19)",
                "bare-loomgate", "/hello", 10);
        cpuTarget(t, "the bare program on the JDK's server, for reference", "bare-jdk", "/hello", -1);
        Optional<Row> nginx = last("nginx", "/api/data");
        for (String server : List.of("loomgate", "jdk")) {
            Optional<Row> warm = last("proxy-" + server, "/api/data");
            Optional<Row> cold = warmedFor("proxy-" + server, 2);
            Optional<Row> restart = warmedFor("restart-" + server, 0);
            t.add(ratio("the proxy on " + server + "'s server ≥ 1.0× nginx (1 worker), warmed", warm, nginx, 1.0,
                    server.equals("loomgate")));
            t.add(ratio("the proxy on " + server + "'s server against nginx after a short warm-up", cold, nginx, -1, false));
            t.add(ratio("the proxy on " + server + "'s server restarted, its first 5 s ≥ 0.8 of its warmed rps", restart, warm,
                    0.8, server.equals("loomgate")));
            t.add(warming(server, warm));
            cpuTarget(t, "CPU per proxied request on " + server + "'s server ≤ 80 µs", "proxy-" + server, "/api/data",
                    server.equals("loomgate") ? 80 : -1);
            cpuTarget(t, "CPU per HTTP /aggregate on " + server + "'s server ≤ 170 µs", "aggregate-" + server, "/aggregate",
                    server.equals("loomgate") ? 170 : -1);
        }
        for (String server : List.of("loomgate", "jdk")) {
            Optional<Row> compose = last("compose-" + server, "/critical-path");
            double bound = 1000 / 0.120;   // Little's law: c=1000 over a 120 ms critical path
            t.add(new LoadReport.Target("compose at c=1000 on " + server + "'s server ≥ 0.9 of Little's bound ("
                    + Math.round(bound) + "/s)",
                    compose.map(r -> String.format(Locale.ROOT, "%.2f of the bound (%.0f/s, p99 %.1f ms, %.1f µs CPU/request)",
                            r.run().okRps() / bound, r.run().okRps(), r.run().p99Ms(), r.cpuMicrosPerRequest()))
                            .orElse("not measured in this run"),
                    compose.isEmpty() || !server.equals("loomgate") ? Optional.empty()
                            : Optional.of(compose.get().run().okRps() / bound >= 0.9)));
        }
        t.add(ratio("/block at c=10,000: loomgate's server ≥ 1.2× the JDK's", last("demo-loomgate", "/block"),
                last("demo-jdk", "/block"), 1.2, true));
        for (Map<String, Object> i : idle) {
            double above = (num(i, "rssHeldKb") - num(i, "rssBeforeKb")) / 1024;
            boolean ours = "loomgate".equals(i.get("server"));
            t.add(new LoadReport.Target(String.format(Locale.ROOT, "%.0f idle connections on %s's server%s", num(i, "connections"),
                    i.get("server"), ours ? " ≤ 100 MB above the idle process" : ""),
                    String.format(Locale.ROOT, "%.0f MB above the idle process (%.0f answered)", above, num(i, "answered")),
                    ours ? Optional.of(above <= 100) : Optional.empty()));
        }
        return t;
    }

    private void cpuTarget(List<LoadReport.Target> t, String what, String name, String endpoint, double most) {
        Optional<Row> row = last(name, endpoint);
        String measured = row.map(r -> String.format(Locale.ROOT, "%.1f µs of CPU per request (%.0f/s, p99 %.1f ms)",
                r.cpuMicrosPerRequest(), r.run().okRps(), r.run().p99Ms())).orElse("not measured in this run");
        t.add(new LoadReport.Target(what, measured,
                most < 0 || row.isEmpty() ? Optional.empty() : Optional.of(row.get().cpuMicrosPerRequest() <= most)));
    }

    private static LoadReport.Target ratio(String what, Optional<Row> a, Optional<Row> b, double least, boolean judged) {
        if (a.isEmpty() || b.isEmpty()) {
            return new LoadReport.Target(what, "not measured in this run", Optional.empty());
        }
        if (b.get().run().okRps() == 0) {
            return new LoadReport.Target(what, String.format(Locale.ROOT, "%.0f/s against none: the reference answered nothing in its run",
                    a.get().run().okRps()), judged && least > 0 ? Optional.of(a.get().run().okRps() > 0) : Optional.empty());
        }
        double ratio = a.get().run().okRps() / b.get().run().okRps();
        return new LoadReport.Target(what, String.format(Locale.ROOT, "%.2f× (%.0f/s against %.0f/s; p99 %.1f ms against %.1f ms)",
                ratio, a.get().run().okRps(), b.get().run().okRps(), a.get().run().p99Ms(), b.get().run().p99Ms()),
                judged && least > 0 ? Optional.of(ratio >= least) : Optional.empty());
    }

    /** When the restarted proxy first answered 0.8 of its warmed rate, and where its first seconds' CPU went. */
    private LoadReport.Target warming(String server, Optional<Row> warm) {
        String what = "the proxy on " + server + "'s server restarted: when it reached 0.8 of its warmed rps, and its CPU in the first 5 s";
        List<Row> windows = rows().stream().filter(r -> r.run().mode().equals("restart-" + server) && r.warmSeconds() > 0).toList();
        if (warm.isEmpty() || windows.isEmpty()) {
            return new LoadReport.Target(what, "not measured in this run", Optional.empty());
        }
        double warmed = warm.get().run().okRps();
        String reached = windows.stream().filter(r -> r.run().okRps() >= 0.8 * warmed).findFirst()
                .map(r -> String.format(Locale.ROOT, "in the 2 s window that began %d s after it listened (%.0f/s)",
                        r.warmSeconds(), r.run().okRps()))
                .orElse(String.format(Locale.ROOT, "not within the window that began %d s after it listened (%.0f/s)",
                        windows.getLast().warmSeconds(), windows.getLast().run().okRps()));
        String split = restart.stream().filter(m -> server.equals(m.get("server"))).findFirst()
                .filter(m -> num(m, "totalMs") > 0)
                .map(m -> String.format(Locale.ROOT, "; of its %.1f s of CPU by then, the JIT's compiler threads %.0f%%, the collector's %.0f%%",
                        num(m, "totalMs") / 1000, 100 * num(m, "jitMs") / num(m, "totalMs"), 100 * num(m, "gcMs") / num(m, "totalMs")))
                .orElse("");
        return new LoadReport.Target(what, reached + split, Optional.empty());
    }

    private Optional<Row> warmedFor(String name, int seconds) {
        return rows().stream().filter(r -> r.run().mode().equals(name) && r.warmSeconds() == seconds).findFirst();
    }

    /** The run of {@code name} on {@code endpoint} that had the longest warm-up. */
    private Optional<Row> last(String name, String endpoint) {
        return rows().stream().filter(r -> r.run().mode().equals(name) && r.run().endpoint().startsWith(endpoint))
                .reduce((x, y) -> y.warmSeconds() >= x.warmSeconds() ? y : x);
    }

    private static double num(Map<String, Object> m, String key) {
        return ((Number) m.getOrDefault(key, 0)).doubleValue();
    }

    public String markdown() {
        return "# loomgate server scenario\n\nMachine: " + machine.getOrDefault("cores", "?") + " cores, "
                + machine.getOrDefault("memory", "?") + ", " + machine.getOrDefault("jdk", "?") + "; "
                + machine.getOrDefault("date", "") + "; wrk on the same machine, " + machine.getOrDefault("seconds", "?")
                + " s per run. Command: `" + machine.getOrDefault("command", "scripts/load --scenario server") + "`\n\n"
                + table() + "\n## Targets\n\n" + LoadReport.targetsList(targets());
    }
}
