package io.loomgate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.json.JsonParser;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.xml.sax.InputSource;

/** The report generator on fixed input: the derived columns, the targets, the files. */
class LoadReportTest {

    private static RunResult run(String endpoint, String mode, int c, long requests, long statusErrors, double p99Ms) {
        return new RunResult(endpoint, mode, c, requests, 10.0,
                Map.of("connect", 0L, "read", 0L, "write", 0L, "status", statusErrors, "timeout", 0L),
                Map.of("p50", 300_000.0, "p99", p99Ms * 1000, "max", p99Ms * 1100), 0);
    }

    private static final List<RunResult> RUNS = List.of(
            run("/block", "virtual", 1000, 32_000, 0, 340),          // 3200 rps
            run("/block", "platform", 1000, 6_600, 0, 1500),         // 660 rps
            run("/block?ms=300", "bare", 1000, 32_500, 0, 320),      // 3250 rps
            run("/aggregate", "virtual", 1000, 30_500, 0, 330),      // 3050 rps of 3333
            run("/first-success", "virtual", 1000, 44_000, 0, 230),  // 4400 rps of 5000
            run("/block?ms=200", "bare", 1000, 48_000, 0, 210),
            run("/health", "virtual", 100, 500_000, 0, 10),          // 50,000 rps
            run("/hello", "bare", 100, 600_000, 0, 8),               // 60,000 rps
            run("/aggregate-old", "virtual", 1000, 5_000, 4_970, 2000));

    private static LoadReport.Row row(LoadReport report, String endpoint, String mode) {
        return report.rows().stream().filter(r -> r.run().endpoint().equals(endpoint) && r.run().mode().equals(mode))
                .findFirst().orElseThrow();
    }

    @Test
    void boundEfficiencyAndShareOfBare() {
        LoadReport report = LoadReport.of(RUNS, Map.of());
        LoadReport.Row block = row(report, "/block", "virtual");
        assertEquals(3333.3, block.bound().getAsDouble(), 0.1);
        assertEquals(0.96, block.efficiency().getAsDouble(), 0.001);
        assertEquals(3200.0 / 3250.0, block.shareOfBare().getAsDouble(), 1e-9);
        assertEquals(5000, row(report, "/first-success", "virtual").bound().getAsDouble(), 1e-9);
        assertEquals(0.88, row(report, "/first-success", "virtual").efficiency().getAsDouble(), 1e-9);
        assertEquals(44_000.0 / 48_000.0, row(report, "/first-success", "virtual").shareOfBare().getAsDouble(), 1e-9);
        assertEquals(50_000.0 / 60_000.0, row(report, "/health", "virtual").shareOfBare().getAsDouble(), 1e-9);
        assertTrue(row(report, "/health", "virtual").bound().isEmpty(), "/health has no designed latency");
        assertTrue(row(report, "/hello", "bare").shareOfBare().isEmpty());
    }

    @Test
    void rowsOfMostlyNon2xxAnswersAreMarkedOnTheChart() {
        String svg = ReportChart.svg(LoadReport.of(RUNS, Map.of()).rows(), Map.of());
        assertTrue(svg.contains("mostly non-2xx! /aggregate-old virtual"), "4,970 of 5,000 were 504s");
        assertTrue(!svg.contains("mostly non-2xx! /block "), svg);
    }

    @Test
    void eachGroupSaysWhatAFullBarIs() {
        String svg = ReportChart.svg(LoadReport.of(RUNS, Map.of()).rows(), Map.of());
        assertTrue(svg.contains(">full bar: 60,000 rps<"), "the /health group's scale: bare /hello's 60,000 rps");
        assertTrue(svg.contains(">full bar: 3,250 rps<"), "the /block group's scale: bare's 3,250 rps");
        assertTrue(svg.contains(">full bar: 1,500 ms<"), "the /block group's p99 scale: platform's 1.5 s");
    }

    @Test
    void onlySuccessfulAnswersCount() {
        LoadReport.Row old = row(LoadReport.of(RUNS, Map.of()), "/aggregate-old", "virtual");
        assertEquals(3.0, old.run().okRps(), 1e-9, "4,970 of 5,000 answers were 504s");
        assertEquals(0.0009, old.efficiency().getAsDouble(), 0.0001);
    }

    @Test
    void targetsAreCheckedAndMissesSayByHowMuch() {
        List<LoadReport.Target> targets = LoadReport.of(RUNS, Map.of()).targets();
        assertEquals(Optional.of(true), targets.get(0).met(), targets.get(0).toString());
        assertEquals("0.98 of bare, p99 340.0 ms, 0", targets.get(0).measured());
        assertEquals(Optional.of(true), targets.get(1).met(), "3200/660 = 4.85x");
        assertEquals("4.85x", targets.get(1).measured());
        assertEquals(Optional.of(true), targets.get(2).met(), "/aggregate 0.915 >= 0.9");
        assertEquals(Optional.of(false), targets.get(3).met(), "/first-success 0.88 < 0.9");
        assertEquals("0.88 (4400 rps), 0", targets.get(3).measured());
        assertEquals(Optional.of(true), targets.get(4).met(), "/health 0.83 >= 0.8");
        assertEquals(Optional.empty(), targets.get(5).met(), "no c=4000 run");
        assertTrue(targets.get(5).measured().startsWith("not checked: this run has no such row"), targets.get(5).measured());
    }

    @Test
    void writesMarkdownAndSvgFromARunDirectory(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("run-001-virtual_block-c1000.json"), """
                {"endpoint":"/block","mode":"virtual","connections":1000,"peakRssKb":204800,"wrk":{"requests":32000,"durationUs":10000000,"rps":3200.0,"bytes":1,"errors":{"connect":0,"read":2,"write":0,"status":0,"timeout":0},"latencyUs":{"mean":1,"stdev":1,"min":1,"p50":301000,"p90":310000,"p99":340000,"p999":350000,"max":360000}}}
                """);
        Files.writeString(dir.resolve("run-002-bare_block_ms_300-c1000.json"), """
                {"endpoint":"/block?ms=300","mode":"bare","connections":1000,"peakRssKb":0,"wrk":{"requests":32500,"durationUs":10000000,"rps":3250.0,"bytes":1,"errors":{"connect":0,"read":0,"write":0,"status":0,"timeout":0},"latencyUs":{"mean":1,"stdev":1,"min":1,"p50":300500,"p90":305000,"p99":320000,"p999":330000,"max":331000}}}
                """);
        Files.writeString(dir.resolve("machine.json"), """
                {"date":"2026-11-22T12:00:00Z","cores":2,"memory":"23.4 GiB RAM","os":"Linux","jdk":"Temurin 25","jvmFlags":"--enable-preview","wrk":"wrk 4.1.0","wrkThreads":2,"seconds":10,"command":"scripts/load"}
                """);
        LoadReport report = ReportMain.write(dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("| `/block` | virtual | 1000 | 3200 | 3333 | 0.96 | 0.98 | 301.0 | 340.0 | read 2 | 200 MB |"), md);
        assertTrue(md.contains("- machine: 2 cores, 23.4 GiB RAM, Linux"), md);
        assertTrue(md.contains("| `/block` virtual c=1000: >= 0.95 of bare `/block?ms=300`, p99 <= 350 ms, zero errors | 0.98 of bare, p99 340.0 ms, read 2 | **no** |"), md);
        assertEquals(2, report.rows().size());

        Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new InputSource(new StringReader(Files.readString(dir.resolve("report.svg")))));
        assertEquals("svg", svg.getDocumentElement().getTagName());
        int bars = 0;
        var rects = svg.getElementsByTagName("rect");
        for (int i = 0; i < rects.getLength(); i++) {
            bars += "bar".equals(rects.item(i).getAttributes().getNamedItem("class") == null ? null
                    : rects.item(i).getAttributes().getNamedItem("class").getNodeValue()) ? 1 : 0;
        }
        assertEquals(4, bars, "an rps bar and a p99 bar per run");
        String text = Files.readString(dir.resolve("report.svg"));
        assertTrue(text.contains(">/block, c=1000</text>"), "the /block group at c=1000, with its bare run in it");
        assertTrue(text.contains("Temurin 25; 10 s per run after a warm-up; wrk 2 threads; scripts/load"), "the footer");
        assertTrue(JsonParser.parseObject(Files.readString(dir.resolve("machine.json"))).containsKey("cores"));
    }
}
