package io.loomgate.aggregate;

import static io.loomgate.service.ServiceName.CACHE_1;
import static io.loomgate.service.ServiceName.CACHE_2;
import static io.loomgate.service.ServiceName.DATABASE;
import static io.loomgate.service.ServiceName.DB;
import static io.loomgate.service.ServiceName.FILE;
import static io.loomgate.service.ServiceName.FILE_FLAKY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.service.ServiceFailure;
import io.loomgate.service.ServiceName;
import io.loomgate.service.ServiceValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/** The policies as pure functions: what the fan-out saw in, outcomes and status out. */
class PolicyTest {

    private static final Duration TIMEOUT = Duration.ofMillis(100);
    private static final ServiceValue V = new ServiceValue.Text("v");

    private static Completion ok(ServiceName s) {
        return new Completion(s, new Completion.Returned(V), Duration.ofMillis(5));
    }

    private static Completion failed(ServiceName s) {
        return new Completion(s, new Completion.Threw(new ServiceFailure(s, "boom")), Duration.ofMillis(5));
    }

    private static Completion unfinished(ServiceName s) {
        return new Completion(s, new Completion.Unfinished(), Duration.ofMillis(100));
    }

    private static Completion neverStarted(ServiceName s) {
        return new Completion(s, new Completion.NeverStarted(), Duration.ZERO);
    }

    private static Aggregation merge(Policy p, boolean deadlineHit, Completion... cs) {
        return p.merge(new FanOutResult(List.of(cs), deadlineHit, TIMEOUT, Duration.ofMillis(100)));
    }

    private static List<String> states(Aggregation a) {
        return a.parts().stream().map(pr -> pr.outcome().state()).toList();
    }

    @Test
    void allSucceedsWhenEveryPartDoes() {
        Aggregation a = merge(Policy.all(), false, ok(DB), ok(FILE));
        assertEquals(Status.OK, a.status());
        assertEquals(List.of("success", "success"), states(a));
        assertTrue(a.completed());
        assertEquals(Optional.empty(), a.error());
    }

    @Test
    void allFailsOnAFailureAndTheRestAreCancelled() {
        Aggregation a = merge(Policy.all(), false, unfinished(DB), failed(FILE));
        assertEquals(Status.FAILED, a.status());
        assertEquals(List.of("cancelled", "failed"), states(a));
        assertEquals("failed: file", a.error().orElseThrow());
        assertEquals("file: boom", ((Outcome.Failed) a.parts().get(1).outcome()).error());
        assertFalse(a.completed());
    }

    @Test
    void allTimesOutKeepingWhatFinished() {
        Aggregation a = merge(Policy.all(), true, unfinished(DB), ok(FILE));
        assertEquals(Status.TIMEOUT, a.status());
        assertEquals(List.of("timeout", "success"), states(a));
        assertEquals(V, ((Outcome.Success) a.parts().get(1).outcome()).value());
        assertEquals("deadline of 100ms passed; unfinished: db", a.error().orElseThrow());
    }

    @Test
    void allCallsAFailureAFailureEvenIfTheDeadlineAlsoPassed() {
        assertEquals(Status.FAILED, merge(Policy.all(), true, unfinished(DB), failed(FILE)).status());
    }

    @Test
    void allIsOkWhenTheDeadlineRacedPartsThatAllFinished() {
        assertEquals(Status.OK, merge(Policy.all(), true, ok(DB), ok(FILE)).status());
    }

    @Test
    void singleIsAllWithItsOwnName() {
        Aggregation a = merge(Policy.single(), false, failed(DB));
        assertEquals("single", a.policy());
        assertEquals(Status.FAILED, a.status());
    }

    @Test
    void anyTakesTheFirstSuccessAndCancelsTheLosers() {
        Aggregation a = merge(Policy.any(), false, unfinished(CACHE_1), ok(CACHE_2), unfinished(DATABASE));
        assertEquals(Status.OK, a.status());
        assertEquals(List.of("cancelled", "success", "cancelled"), states(a));
    }

    @Test
    void anyReportsEveryFailureWhenAllFail() {
        Aggregation a = merge(Policy.any(), false, failed(CACHE_1), failed(CACHE_2), failed(DATABASE));
        assertEquals(Status.FAILED, a.status());
        assertEquals(List.of("failed", "failed", "failed"), states(a));
        assertEquals("all 3 failed: cache-1, cache-2, database", a.error().orElseThrow());
    }

    @Test
    void anyTimesOutWithoutAWinner() {
        Aggregation a = merge(Policy.any(), true, failed(CACHE_1), unfinished(CACHE_2), unfinished(DATABASE));
        assertEquals(Status.TIMEOUT, a.status());
        assertEquals(List.of("failed", "timeout", "timeout"), states(a));
    }

    @Test
    void fallbackReplacesFailedAndLateParts() {
        Policy p = Policy.withFallback(Map.of(FILE_FLAKY, new ServiceValue.Text("fb")));
        Aggregation failedPart = merge(p, false, ok(DB), failed(FILE_FLAKY));
        assertEquals(Status.DEGRADED, failedPart.status());
        assertEquals(List.of("success", "fallback"), states(failedPart));
        var fb = assertInstanceOf(Outcome.Fallback.class, failedPart.parts().get(1).outcome());
        assertEquals(new ServiceValue.Text("fb"), fb.value());
        assertEquals("file-flaky: boom", fb.reason());
        assertFalse(failedPart.completed());

        Aggregation late = merge(p, true, unfinished(DB), ok(FILE_FLAKY));
        assertEquals(Status.DEGRADED, late.status());
        var generic = assertInstanceOf(Outcome.Fallback.class, late.parts().get(0).outcome());
        assertEquals(new ServiceValue.Text("fallback for db"), generic.value());
        assertEquals("deadline of 100ms passed", generic.reason());
    }

    @Test
    void fallbackIsOkWhenNothingWasReplaced() {
        Aggregation a = merge(Policy.withFallback(Map.of()), false, ok(DB), ok(FILE_FLAKY));
        assertEquals(Status.OK, a.status());
        assertTrue(a.completed());
    }

    @Test
    void theCompletableFutureBaselineOrphansWhatItCannotStop() {
        Policy cf = Policy.completableFuture(ForkJoinPool.commonPool(), "common-pool");
        Aggregation a = merge(cf, false, unfinished(DB), failed(FILE));
        assertEquals(Status.FAILED, a.status());
        assertEquals(List.of("orphaned", "failed"), states(a));
        Aggregation late = merge(cf, true, unfinished(DB), ok(FILE));
        assertEquals(Status.TIMEOUT, late.status());
        assertEquals(List.of("orphaned", "success"), states(late));
        Aggregation queued = merge(cf, true, unfinished(DB), neverStarted(FILE));
        assertEquals(List.of("orphaned", "cancelled"), states(queued), "a part that never started is not an orphan");
        assertEquals("deadline of 100ms passed; unfinished: db, file", queued.error().orElseThrow());
    }

    @Test
    void structuredPoliciesTreatANeverStartedPartLikeAnUnfinishedOne() {
        assertEquals(List.of("timeout", "success"), states(merge(Policy.all(), true, neverStarted(DB), ok(FILE))));
        assertEquals(List.of("cancelled", "failed"), states(merge(Policy.all(), false, neverStarted(DB), failed(FILE))));
        assertEquals(List.of("success", "cancelled"), states(merge(Policy.any(), false, ok(CACHE_1), neverStarted(CACHE_2))));
        assertEquals("fallback", states(merge(Policy.withFallback(Map.of()), true, neverStarted(DB))).getFirst());
    }

    @Test
    void unexpectedExceptionsAreDescribedWithoutTheirClassOrMessage() {
        Completion odd = new Completion(DB, new Completion.Threw(new IllegalStateException("internal detail")), Duration.ZERO);
        String error = ((Outcome.Failed) merge(Policy.all(), false, odd).parts().getFirst().outcome()).error();
        assertEquals("db: unexpected error (logged with the request id)", error);
    }

    @Test
    void statusesMapToHttp() {
        assertEquals(200, Status.OK.httpStatus());
        assertEquals(200, Status.DEGRADED.httpStatus());
        assertEquals(502, Status.FAILED.httpStatus());
        assertEquals(504, Status.TIMEOUT.httpStatus());
    }
}
