package io.loomgate.load;

import io.loomgate.json.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Turns a results directory of {@code scripts/load} into {@code report.md} and {@code report.svg},
 * and prints the table:
 * <pre>{@code
 * java -cp target/loomgate.jar io.loomgate.load.ReportMain load/results/20261122T140000Z
 * }</pre>
 * The directory holds one {@code run-*.json} per wrk run (in the order they ran) and a
 * {@code machine.json}.
 */
public final class ReportMain {

    private ReportMain() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 2 && args[0].equals("--bare-equivalent")) {
            // scripts/load asks which bare endpoint does the same waiting as a loomgate endpoint.
            System.out.println(DesignedLatency.bareEquivalent(args[1]));
            return;
        }
        if (args.length == 2 && args[0].equals("--proxy")) {
            ProxyReport report = writeProxy(Path.of(args[1]));
            System.out.print(report.table());
            System.out.println();
            report.targets().forEach(ReportMain::printTarget);
            return;
        }
        if (args.length == 2 && args[0].equals("--tail")) {
            TailReport report = writeTail(Path.of(args[1]));
            System.out.print(report.table());
            System.out.println();
            report.targets().forEach(ReportMain::printTarget);
            return;
        }
        if (args.length == 2 && args[0].equals("--compose")) {
            Path dir = Path.of(args[1]);
            ComposeReport report = ComposeReport.of(runs(dir), jsonFiles(dir, "cpu-.*\\.json"), machine(dir));
            Files.writeString(dir.resolve("report.md"), report.markdown());
            System.out.print(report.table());
            System.out.println();
            report.targets().forEach(ReportMain::printTarget);
            return;
        }
        if (args.length == 2 && args[0].equals("--server")) {
            Path dir = Path.of(args[1]);
            ServerReport report = new ServerReport(runs(dir), jsonFiles(dir, "cpu-.*\\.json"), jsonFiles(dir, "idle-.*\\.json"),
                    jsonFiles(dir, "restart-.*\\.json"), machine(dir));
            Files.writeString(dir.resolve("report.md"), report.markdown());
            System.out.print(report.table());
            System.out.println();
            report.targets().forEach(ReportMain::printTarget);
            return;
        }
        if (args.length == 2 && (args[0].equals("--tls") || args[0].equals("--ratelimit"))) {
            Path dir = Path.of(args[1]);
            EdgeReport report = args[0].equals("--tls") ? EdgeReport.tls(runs(dir), machine(dir))
                    : EdgeReport.rateLimit(runs(dir), machine(dir));
            Files.writeString(dir.resolve("report.md"), report.markdown());
            System.out.print(report.table());
            System.out.println();
            report.targets().forEach(ReportMain::printTarget);
            return;
        }
        if (args.length == 2 && args[0].equals("--abuse")) {
            Path dir = Path.of(args[1]);
            AbuseReport report = new AbuseReport(runs(dir), JsonParser.parseObject(Files.readString(dir.resolve("attacker.json"))),
                    machine(dir));
            Files.writeString(dir.resolve("report.md"), report.markdown());
            System.out.print(report.table());
            System.out.println(report.attack());
            report.targets().forEach(ReportMain::printTarget);
            return;
        }
        if (args.length == 2 && args[0].equals("--saturation")) {
            Path dir = Path.of(args[1]);
            List<SaturationReport.Row> rows = new ArrayList<>();
            for (Path f : runFiles(dir)) {
                Map<String, Object> json = JsonParser.parseObject(Files.readString(f));
                rows.add(SaturationReport.Row.of(RunResult.fromJson(json), json));
            }
            SaturationReport report = new SaturationReport(rows, machine(dir));
            Files.writeString(dir.resolve("report.md"), report.markdown());
            System.out.print(report.table());
            System.out.println();
            report.targets().forEach(ReportMain::printTarget);
            return;
        }
        if (args.length == 2 && args[0].equals("--shared-limit")) {
            Path dir = Path.of(args[1]);
            List<SharedLimitReport.Instance> instances = new ArrayList<>();
            for (int i = 1; Files.exists(dir.resolve("metrics-after-gate" + i + ".txt")); i++) {
                instances.add(new SharedLimitReport.Instance(
                        io.loomgate.testing.PrometheusText.parse(Files.readString(dir.resolve("metrics-before-gate" + i + ".txt"))),
                        io.loomgate.testing.PrometheusText.parse(Files.readString(dir.resolve("metrics-after-gate" + i + ".txt")))));
            }
            SharedLimitReport report = new SharedLimitReport(runs(dir), instances, machine(dir));
            Files.writeString(dir.resolve("report.md"), report.markdown());
            System.out.print(report.table());
            System.out.println();
            report.targets().forEach(ReportMain::printTarget);
            return;
        }
        if (args.length == 2 && args[0].equals("--cache")) {
            Path dir = Path.of(args[1]);
            Map<String, Map<String, Object>> cpu = new java.util.LinkedHashMap<>();
            for (Map<String, Object> c : jsonFiles(dir, "cpu-.*\\.json")) {
                cpu.put((String) c.get("mode"), c);
            }
            CacheReport report = new CacheReport(runs(dir), cpu, machine(dir));
            Files.writeString(dir.resolve("report.md"), report.markdown());
            System.out.print(report.table());
            System.out.println();
            report.targets().forEach(ReportMain::printTarget);
            return;
        }
        if (args.length == 2 && args[0].equals("--replicas")) {
            Path dir = Path.of(args[1]);
            List<ReplicasReport.Run> runs = new ArrayList<>();
            for (String name : List.of("proxy", "fan-out", "nginx")) {
                Path f = dir.resolve("replicas-" + name + ".json");
                if (Files.exists(f)) {
                    runs.add(ReplicasReport.Run.of(name, JsonParser.parseObject(Files.readString(f))));
                }
            }
            ReplicasReport report = new ReplicasReport(runs, machine(dir));
            Files.writeString(dir.resolve("report.md"), report.markdown());
            Files.writeString(dir.resolve("report.svg"), report.svg());
            System.out.print(report.table());
            System.out.println();
            report.targets().forEach(ReportMain::printTarget);
            return;
        }
        if (args.length == 2 && args[0].equals("--buckets")) {
            Path dir = Path.of(args[1]);
            BucketReport report = BucketReport.read(dir, runs(dir), machine(dir));
            Files.writeString(dir.resolve("report.md"), report.markdown());
            System.out.print(report.table());
            return;
        }
        if (args.length != 1) {
            System.err.println("usage: java -cp loomgate.jar io.loomgate.load.ReportMain RESULTS_DIR");
            System.err.println("       java -cp loomgate.jar io.loomgate.load.ReportMain --bare-equivalent ENDPOINT");
            System.err.println("       java -cp loomgate.jar io.loomgate.load.ReportMain --proxy RESULTS_DIR");
            System.err.println("       java -cp loomgate.jar io.loomgate.load.ReportMain --tail RESULTS_DIR");
            System.err.println("       java -cp loomgate.jar io.loomgate.load.ReportMain --buckets RESULTS_DIR");
            System.err.println("       java -cp loomgate.jar io.loomgate.load.ReportMain --saturation RESULTS_DIR");
            System.err.println("       java -cp loomgate.jar io.loomgate.load.ReportMain --compose RESULTS_DIR");
            System.err.println("       java -cp loomgate.jar io.loomgate.load.ReportMain --tls RESULTS_DIR");
            System.err.println("       java -cp loomgate.jar io.loomgate.load.ReportMain --ratelimit RESULTS_DIR");
            System.err.println("       java -cp loomgate.jar io.loomgate.load.ReportMain --abuse RESULTS_DIR");
            System.err.println("       java -cp loomgate.jar io.loomgate.load.ReportMain --replicas RESULTS_DIR");
            System.err.println("       java -cp loomgate.jar io.loomgate.load.ReportMain --cache RESULTS_DIR");
            System.exit(2);
        }
        LoadReport report = write(Path.of(args[0]));
        System.out.print(report.table());
        System.out.println();
        report.targets().forEach(ReportMain::printTarget);
    }

    /** Reads the proxy scenario's runs in {@code dir}, writes its {@code report.md}, and returns the report. */
    public static ProxyReport writeProxy(Path dir) throws IOException {
        ProxyReport report = ProxyReport.of(runs(dir), machine(dir));
        Files.writeString(dir.resolve("report.md"), report.markdown());
        return report;
    }

    private static void printTarget(LoadReport.Target t) {
        System.out.println(t.met().map(m -> m ? "met:    " : "MISSED: ").orElse("not checked: ") + t.what() + ": " + t.measured());
    }

    /** Reads the tail scenario's runs and upstream counts in {@code dir}, writes its report files, and returns the report. */
    public static TailReport writeTail(Path dir) throws IOException {
        Map<String, Map<String, Object>> upstream = new java.util.LinkedHashMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("upstream-.*\\.json")).toList()) {
                Map<String, Object> u = JsonParser.parseObject(Files.readString(f));
                upstream.put((String) u.get("route"), u);
            }
        }
        TailReport report = TailReport.of(runs(dir), upstream, machine(dir));
        Files.writeString(dir.resolve("report.md"), report.markdown());
        Files.writeString(dir.resolve("report.svg"), report.svg());
        return report;
    }

    /** Reads the runs in {@code dir}, writes the report files there, and returns the report. */
    public static LoadReport write(Path dir) throws IOException {
        Map<String, Object> machine = machine(dir);
        LoadReport report = LoadReport.of(runs(dir), machine);
        Files.writeString(dir.resolve("report.md"), report.markdown());
        Files.writeString(dir.resolve("report.svg"), ReportChart.svg(report.rows(), machine));
        return report;
    }

    /** The JSON objects of the files in {@code dir} whose names match {@code pattern}, in name order. */
    private static List<Map<String, Object>> jsonFiles(Path dir, String pattern) throws IOException {
        List<Map<String, Object>> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches(pattern)).sorted().toList()) {
                all.add(JsonParser.parseObject(Files.readString(f)));
            }
        }
        return all;
    }

    private static List<RunResult> runs(Path dir) throws IOException {
        List<RunResult> runs = new ArrayList<>();
        for (Path f : runFiles(dir)) {
            runs.add(RunResult.fromJson(JsonParser.parseObject(Files.readString(f))));
        }
        return runs;
    }

    /** The {@code run-NNN-*.json} files of {@code dir}, in the order they ran. */
    private static List<Path> runFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().matches("run-.*\\.json"))
                    .sorted(Comparator.comparing(Path::getFileName)).toList();
        }
    }

    private static Map<String, Object> machine(Path dir) throws IOException {
        Path machineFile = dir.resolve("machine.json");
        return Files.exists(machineFile) ? JsonParser.parseObject(Files.readString(machineFile)) : Map.of();
    }
}
