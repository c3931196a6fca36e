package io.loomgate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SoakVerdictTest {

    private static final Map<String, Long> NO_ERRORS = Map.of("connect", 0L, "read", 0L, "write", 0L, "status", 700L, "timeout", 0L);
    private static final SoakVerdict.Snapshot WARM = new SoakVerdict.Snapshot(600_000, 10_000_000, 0, Map.of("success", 100L));

    private static SoakVerdict verdict(SoakVerdict.Snapshot after, Map<Integer, Long> statuses, Map<String, Long> errors, boolean idle) {
        return new SoakVerdict(WARM, after, new SoakVerdict.Load(1000, 10, errors, statuses), idle, idle ? 50 : -1);
    }

    private static List<Boolean> results(SoakVerdict v) {
        return v.checks().stream().map(SoakVerdict.Check::ok).toList();
    }

    @Test
    void aCleanRunPasses() {
        SoakVerdict v = verdict(new SoakVerdict.Snapshot(630_000, 10_500_000, 0, Map.of("success", 900L, "failed", 50L)),
                Map.of(200, 300L, 502, 200L, 504, 500L), NO_ERRORS, true);
        assertTrue(v.passed(), v.summary());
        assertTrue(v.summary().contains("- service calls by outcome: failed 50, success 800"), v.summary());
        assertTrue(v.summary().contains("| RSS within 10% of its level after warm-up | 585.9 MB -> 615.2 MB (+5.0%) | ok |"), v.summary());
    }

    @Test
    void eachKindOfMissFailsTheSoak() {
        SoakVerdict.Snapshot fine = new SoakVerdict.Snapshot(600_000, 10_000_000, 0, Map.of());
        Map<Integer, Long> ok = Map.of(200, 1000L);
        assertEquals(List.of(false, false, true, true, true, true),
                results(verdict(fine, Map.of(200, 999L, 500, 1L), NO_ERRORS, true)), "a 500");
        assertEquals(List.of(false, true, true, true, true, true),
                results(verdict(new SoakVerdict.Snapshot(600_000, 10_000_000, 3, Map.of()), ok, NO_ERRORS, true)), "a 500 only the server saw");
        assertEquals(List.of(true, false, true, true, true, true),
                results(verdict(fine, Map.of(200, 900L, 503, 100L), NO_ERRORS, true)), "an unexpected 503");
        assertEquals(List.of(true, true, false, true, true, true),
                results(verdict(fine, ok, Map.of("read", 4L, "status", 0L), true)), "socket errors");
        assertEquals(List.of(true, true, true, false, true, true), results(verdict(fine, ok, NO_ERRORS, false)), "calls left running");
        assertEquals(List.of(true, true, true, true, false, true),
                results(verdict(new SoakVerdict.Snapshot(700_000, 10_000_000, 0, Map.of()), ok, NO_ERRORS, true)), "RSS +17%");
        assertEquals(List.of(true, true, true, true, true, false),
                results(verdict(new SoakVerdict.Snapshot(600_000, 12_000_000, 0, Map.of()), ok, NO_ERRORS, true)), "heap +20%");
        assertFalse(verdict(fine, ok, NO_ERRORS, false).passed());
    }
}
