package io.loomgate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The replicas report's arithmetic, on made-up seconds: the p99 before, the recovery, the targets, the chart. */
class ReplicasReportTest {

    /** A 30 s run: p99 100 ms, {@code spike} ms at the kill, {@code after} ms for the seconds after it until {@code until}. */
    private static ReplicasReport.Run run(String name, double spike, double after, int until, long failedAtKill) {
        List<ReplicasReport.Second> s = new ArrayList<>();
        for (int t = 0; t < 30; t++) {
            double p99 = t == 5 ? spike : t > 5 && t < until ? after : 100;
            s.add(new ReplicasReport.Second(t, 1000, t == 5 ? failedAtKill : 0, 0, 50, p99));
        }
        return new ReplicasReport.Run(name, 1000, s);
    }

    private static final Map<String, Object> MACHINE = Map.of("killAt", 5, "backAt", 15, "cores", 2);

    @Test
    void theP99IsBackWhenItStaysWithinATenthAndAFifthOfBeforeUntilTheRestart() {
        ReplicasReport.Run quick = run("proxy", 400, 100, 6, 0);
        assertEquals(100, quick.p99Before(5));
        assertEquals(Optional.of(1), quick.recovery(5, 15), "the kill's second, then back");
        ReplicasReport.Run slow = run("fan-out", 400, 130, 12, 0);
        assertEquals(Optional.of(7), slow.recovery(5, 15), "130 ms is over 1.2x of 100 until the 12th second");
        ReplicasReport.Run never = run("fan-out", 400, 130, 20, 0);
        assertEquals(Optional.empty(), never.recovery(5, 15));
    }

    @Test
    void theTargetsCompareFailuresWithNginxsAndTheRecoveryWithFiveSeconds() {
        ReplicasReport report = new ReplicasReport(List.of(run("proxy", 400, 100, 6, 3), run("fan-out", 400, 130, 12, 0),
                run("nginx", 200, 100, 6, 10)), MACHINE);
        List<LoadReport.Target> t = report.targets();
        assertEquals(Optional.of(true), t.get(0).met(), t.get(0).measured());
        assertEquals("3 failed against nginx's 10", t.get(0).measured());
        assertEquals(Optional.of(true), t.get(1).met(), "the proxy: back in 1 s");
        assertEquals(Optional.of(false), t.get(2).met(), "the fan-out: back in 7 s");
        assertTrue(report.table().contains("| proxy | 30,000 | 3 | 100.0 |"), report.table());
        String svg = report.svg();
        assertTrue(svg.startsWith("<svg") && svg.contains("killed") && svg.contains("restarted") && svg.split("<polyline").length == 10,
                "three panels of three lines");
    }

    @Test
    void noFailuresOnEitherSideIsNotFewer() {
        ReplicasReport report = new ReplicasReport(List.of(run("proxy", 400, 100, 6, 0), run("nginx", 200, 100, 6, 0)), MACHINE);
        LoadReport.Target t = report.targets().getFirst();
        assertEquals(Optional.of(false), t.met());
        assertTrue(t.measured().contains("neither failed one"), t.measured());
    }
}
