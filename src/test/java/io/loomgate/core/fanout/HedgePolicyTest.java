package io.loomgate.core.fanout;

import io.loomgate.core.call.Status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The hedge's budget, latency window, delay and merge, as pure logic: no threads, no sockets. */
class HedgePolicyTest {

    private static final UpstreamId API = UpstreamId.of("api");
    private static final Value V = Value.text("v");
    private static final List<FanOut.Part> ONE = List.of(new FanOut.Part(API, () -> V));

    @Test
    void theWindowGivesItsPercentileOnceItHasEnoughSamples() {
        LatencyWindow w = new LatencyWindow(95);
        for (int i = 1; i < LatencyWindow.MIN_SAMPLES; i++) {
            w.record(Duration.ofMillis(i));
        }
        assertEquals(Optional.empty(), w.value());
        for (int i = LatencyWindow.MIN_SAMPLES; i <= 100; i++) {
            w.record(Duration.ofMillis(i));
        }
        assertEquals(Optional.of(Duration.ofMillis(95)), w.value());
    }

    @Test
    void theWindowForgetsOldSamples() {
        LatencyWindow w = new LatencyWindow(50);
        for (int i = 0; i < LatencyWindow.SIZE; i++) {
            w.record(Duration.ofSeconds(1));
        }
        assertEquals(Optional.of(Duration.ofSeconds(1)), w.value());
        for (int i = 0; i < LatencyWindow.SIZE; i++) {
            w.record(Duration.ofMillis(10));
        }
        assertEquals(Optional.of(Duration.ofMillis(10)), w.value());
    }

    @Test
    void anAdaptiveDelayFollowsThePrimarysRecentLatencyAboveItsFloor() {
        HedgePolicy hedge = new HedgePolicy(HedgeSettings.adaptive(95, Duration.ofMillis(5), 1));
        assertEquals(Duration.ofMillis(5), hedge.delay(), "the floor, until the window has samples");
        for (int i = 0; i < 100; i++) {
            hedge.merge(result(primary(Duration.ofMillis(i < 95 ? 20 : 900)), notSent()));
        }
        assertEquals(Duration.ofMillis(20), hedge.delay());
        for (int i = 0; i < LatencyWindow.SIZE; i++) {
            hedge.merge(result(primary(Duration.ofMillis(1)), notSent()));
        }
        assertEquals(Duration.ofMillis(5), hedge.delay(), "never below the floor");
    }

    @Test
    void theBackupIsADelayedPartThatAsksTheBudget() {
        HedgePolicy hedge = new HedgePolicy(HedgeSettings.fixed(Duration.ofMillis(20), 0.5).withMinPerSecond(0));
        List<FanOut.Part> first = hedge.parts(ONE);
        assertEquals(2, first.size());
        assertTrue(first.get(0).immediate());
        assertEquals(Duration.ofMillis(20), first.get(1).after());
        assertFalse(first.get(1).admit().getAsBoolean(), "half a token after one primary");
        List<FanOut.Part> second = hedge.parts(ONE);
        assertTrue(second.get(1).admit().getAsBoolean(), "a whole token after two");
    }

    @Test
    void theMergeNamesTheWinningCopyAndHidesAnUnsentBackup() {
        HedgePolicy hedge = new HedgePolicy(HedgeSettings.fixed(Duration.ofMillis(20), 1));
        Aggregation quick = hedge.merge(result(primary(Duration.ofMillis(5)), notSent()));
        assertEquals(Status.OK, quick.status());
        assertEquals(1, quick.parts().size());
        assertEquals(new HedgeReport(false, Optional.empty(), Optional.of("primary")), quick.hedge().orElseThrow());

        FinishedCall cancelled = new FinishedCall(API, Outcome.CANCELLED, Optional.of(Duration.ZERO), Duration.ofMillis(30));
        FinishedCall backupWon = new FinishedCall(API, new Outcome.Success(V), Optional.of(Duration.ofMillis(20)),
                Duration.ofMillis(10));
        Aggregation hedged = hedge.merge(result(cancelled, backupWon));
        assertEquals(Status.OK, hedged.status());
        assertEquals(2, hedged.parts().size());
        assertEquals(new HedgeReport(true, Optional.of(Duration.ofMillis(20)), Optional.of("backup")),
                hedged.hedge().orElseThrow());
    }

    private static FinishedCall primary(Duration took) {
        return new FinishedCall(API, new Outcome.Success(V), Optional.of(Duration.ZERO), took);
    }

    private static FinishedCall notSent() {
        return new FinishedCall(API, Outcome.CANCELLED, Optional.empty(), Duration.ZERO);
    }

    private static FanOutResult result(FinishedCall primary, FinishedCall backup) {
        return new FanOutResult(List.of(primary, backup), false, Duration.ofSeconds(2), primary.duration());
    }
}
