package io.loomgate.core.fanout;

import io.loomgate.core.call.Status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The policies as pure functions: the parts as an engine reported them in, outcomes and status
 * out. (Which unfinished part is {@code cancelled}, {@code timeout} or {@code orphaned} is the
 * engine's to say: see StructuredFanOutTest and CompletableFutureFanOutTest.)
 */
class PolicyTest {

    private static final UpstreamId DB = UpstreamId.of("db");
    private static final UpstreamId FILE = UpstreamId.of("file");
    private static final UpstreamId FILE_FLAKY = UpstreamId.of("file-flaky");
    private static final UpstreamId CACHE_1 = UpstreamId.of("cache-1");
    private static final UpstreamId CACHE_2 = UpstreamId.of("cache-2");
    private static final UpstreamId DATABASE = UpstreamId.of("database");
    private static final Duration TIMEOUT = Duration.ofMillis(100);
    private static final Value V = Value.text("v");

    private static FinishedCall ok(UpstreamId s) {
        return new FinishedCall(s, new Outcome.Success(V), Duration.ofMillis(5));
    }

    private static FinishedCall failed(UpstreamId s) {
        return new FinishedCall(s, new Outcome.Failed(s + ": boom"), Duration.ofMillis(5));
    }

    private static FinishedCall cancelled(UpstreamId s) {
        return new FinishedCall(s, Outcome.CANCELLED, Duration.ofMillis(100));
    }

    private static FinishedCall timedOut(UpstreamId s) {
        return new FinishedCall(s, Outcome.TIMED_OUT, Duration.ofMillis(100));
    }

    private static FinishedCall orphaned(UpstreamId s) {
        return new FinishedCall(s, Outcome.ORPHANED, Duration.ofMillis(100));
    }

    private static Aggregation merge(Policy p, boolean deadlineHit, FinishedCall... parts) {
        return p.merge(new FanOutResult(List.of(parts), deadlineHit, TIMEOUT, Duration.ofMillis(100)));
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
    void allFailsOnAFailureAndKeepsTheCancelledRest() {
        Aggregation a = merge(Policy.all(), false, cancelled(DB), failed(FILE));
        assertEquals(Status.FAILED, a.status());
        assertEquals(List.of("cancelled", "failed"), states(a));
        assertEquals("failed: file", a.error().orElseThrow());
        assertEquals("file: boom", ((Outcome.Failed) a.parts().get(1).outcome()).reason());
        assertFalse(a.completed());
    }

    @Test
    void allTimesOutKeepingWhatFinished() {
        Aggregation a = merge(Policy.all(), true, timedOut(DB), ok(FILE));
        assertEquals(Status.TIMEOUT, a.status());
        assertEquals(List.of("timeout", "success"), states(a));
        assertEquals(V, ((Outcome.Success) a.parts().get(1).outcome()).value());
        assertEquals("deadline of 100ms passed; unfinished: db", a.error().orElseThrow());
    }

    @Test
    void allCallsAFailureAFailureEvenIfTheDeadlineAlsoPassed() {
        assertEquals(Status.FAILED, merge(Policy.all(), true, timedOut(DB), failed(FILE)).status());
    }

    @Test
    void allIsOkWhenTheDeadlineRacedPartsThatAllFinished() {
        assertEquals(Status.OK, merge(Policy.all(), true, ok(DB), ok(FILE)).status());
    }

    @Test
    void singleMergesLikeAllUnderItsOwnName() {
        Aggregation a = merge(Policy.single(), false, failed(DB));
        assertEquals("single", a.policy());
        assertEquals(Status.FAILED, a.status());
        assertEquals(Status.TIMEOUT, merge(Policy.single(), true, timedOut(DB)).status());
    }

    @Test
    void anyTakesTheFirstSuccessAndKeepsTheCancelledLosers() {
        Aggregation a = merge(Policy.any(), false, cancelled(CACHE_1), ok(CACHE_2), cancelled(DATABASE));
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
        Aggregation a = merge(Policy.any(), true, failed(CACHE_1), timedOut(CACHE_2), timedOut(DATABASE));
        assertEquals(Status.TIMEOUT, a.status());
        assertEquals(List.of("failed", "timeout", "timeout"), states(a));
        assertEquals("deadline of 100ms passed; unfinished: cache-2, database", a.error().orElseThrow());
    }

    @Test
    void fallbackReplacesFailedAndLateParts() {
        Policy p = Policy.withFallback(Map.of(FILE_FLAKY, Value.text("fb")));
        Aggregation failedPart = merge(p, false, ok(DB), failed(FILE_FLAKY));
        assertEquals(Status.DEGRADED, failedPart.status());
        assertEquals(List.of("success", "fallback"), states(failedPart));
        var fb = assertInstanceOf(Outcome.Fallback.class, failedPart.parts().get(1).outcome());
        assertEquals(Value.text("fb"), fb.value());
        assertEquals("file-flaky: boom", fb.reason());
        assertFalse(failedPart.completed());

        Aggregation late = merge(p, true, timedOut(DB), ok(FILE_FLAKY));
        assertEquals(Status.DEGRADED, late.status());
        var generic = assertInstanceOf(Outcome.Fallback.class, late.parts().get(0).outcome());
        assertEquals(Value.text("fallback for db"), generic.value());
        assertEquals("deadline of 100ms passed", generic.reason());
        assertEquals(Duration.ofMillis(100), late.parts().get(0).duration(), "the part keeps how long it ran");
    }

    @Test
    void fallbackIsOkWhenNothingWasReplaced() {
        Aggregation a = merge(Policy.withFallback(Map.of()), false, ok(DB), ok(FILE_FLAKY));
        assertEquals(Status.OK, a.status());
        assertTrue(a.completed());
    }

    @Test
    void allCountsOrphansAndNeverStartedPartsAsUnfinished() {
        Aggregation failed = merge(Policy.all(), false, orphaned(DB), failed(FILE));
        assertEquals(Status.FAILED, failed.status());
        assertEquals(List.of("orphaned", "failed"), states(failed));
        Aggregation late = merge(Policy.all(), true, orphaned(DB), cancelled(FILE));
        assertEquals(Status.TIMEOUT, late.status());
        assertEquals(List.of("orphaned", "cancelled"), states(late));
        assertEquals("deadline of 100ms passed; unfinished: db, file", late.error().orElseThrow());
    }

    @Test
    void upstreamFailuresKeepTheirMessageAndUnexpectedExceptionsLoseIt() {
        RequestContext ctx = RequestContext.of("req-1", "/test", TIMEOUT);
        Outcome.Failed known = RequestContext.callWith(ctx, () -> Failures.failed(DB, new UpstreamFailure(DB, "boom")));
        assertEquals("db: boom", known.reason());
        Outcome.Failed odd = RequestContext.callWith(ctx,
                () -> Failures.failed(DB, new IllegalStateException("internal detail")));
        assertEquals("db: unexpected error (logged with the request id)", odd.reason());
    }

    @Test
    void quorumSucceedsAtKAndKeepsTheCancelledRest() {
        Aggregation a = merge(Policy.quorum(2), false, ok(CACHE_1), cancelled(CACHE_2), ok(DATABASE));
        assertEquals(Status.OK, a.status());
        assertEquals("quorum", a.policy());
        assertEquals(List.of("success", "cancelled", "success"), states(a));
    }

    @Test
    void quorumFailsAsSoonAsKIsOutOfReachAndReportsEveryFailure() {
        Aggregation a = merge(Policy.quorum(2), false, failed(CACHE_1), failed(CACHE_2), cancelled(DATABASE));
        assertEquals(Status.FAILED, a.status());
        assertEquals("quorum of 2 out of reach: 2 of 3 failed: cache-1, cache-2", a.error().orElseThrow());
    }

    @Test
    void quorumTimesOutShortOfK() {
        Aggregation a = merge(Policy.quorum(2), true, ok(CACHE_1), timedOut(CACHE_2), timedOut(DATABASE));
        assertEquals(Status.TIMEOUT, a.status());
        assertEquals("deadline of 100ms passed; unfinished: cache-2, database; 1 of 2 succeeded", a.error().orElseThrow());
    }

    @Test
    void theStopRulesCountSuccessesAndFailures() {
        StopWhen q = StopWhen.quorum(2);
        assertEquals(false, q.decided(1, 0, 3));
        assertEquals(true, q.decided(2, 0, 3), "k successes");
        assertEquals(false, q.decided(0, 1, 3), "2 of the other 2 can still succeed");
        assertEquals(true, q.decided(0, 2, 3), "only 1 left: k is out of reach");
        assertEquals(true, StopWhen.FIRST_FAILURE.decided(5, 1, 9));
        assertEquals(true, StopWhen.FIRST_SUCCESS.decided(1, 4, 9));
        assertEquals(false, StopWhen.ALL_DONE.decided(4, 4, 9));
    }

    @Test
    void statusesMapToHttp() {
        assertEquals(200, Status.OK.httpStatus());
        assertEquals(200, Status.DEGRADED.httpStatus());
        assertEquals(502, Status.FAILED.httpStatus());
        assertEquals(504, Status.TIMEOUT.httpStatus());
    }
}
