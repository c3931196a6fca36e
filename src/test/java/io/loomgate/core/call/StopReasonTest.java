package io.loomgate.core.call;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loomgate.http.StopReason;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One stop reason per request, recorded once, first one kept; every interrupted call's outcome reads it. */
class StopReasonTest {

    private static RequestContext ctx() {
        return RequestContext.of("r1", "/x", Duration.ofSeconds(30));
    }

    @Test
    void aCallStoppedByNothingButItsAnswerWasCancelledBecauseOfASibling() {
        RequestContext c = ctx();
        assertEquals(new Outcome.Cancelled(StopReason.SIBLING), Outcome.stopped(c, false));
        assertEquals(Optional.empty(), c.stopReason(), "a sibling's win stops calls, not the request");
    }

    @Test
    void theDeadlineTimesACallOutAndIsRecordedAsTheRequestsReason() {
        RequestContext c = ctx();
        assertEquals(Outcome.TIMED_OUT, Outcome.stopped(c, true));
        assertEquals(Optional.of(StopReason.DEADLINE), c.stopReason());
        assertEquals(Outcome.TIMED_OUT, Outcome.stopped(c, false), "later calls of the request read the same reason");
    }

    @Test
    void aClientThatWentAwayFirstIsTheReasonEvenWhenTheDeadlinePassesAfter() {
        RequestContext c = ctx();
        c.ledger().stopped(StopReason.CLIENT_GONE);
        assertEquals(new Outcome.Cancelled(StopReason.CLIENT_GONE), Outcome.stopped(c, true));
        assertEquals(new Outcome.Cancelled(StopReason.CLIENT_GONE), Outcome.stopped(c, false));
        assertEquals(false, c.ledger().stopped(StopReason.DEADLINE), "the first reason is kept");
        assertEquals(Optional.of(StopReason.CLIENT_GONE), c.stopReason());
    }

    @Test
    void aCallsOwnTimeoutIsThatCallsReasonNotItsRequests() throws Exception {
        RequestContext c = ctx();
        assertEquals(Outcome.TIMED_OUT, OwnTimeout.under(() -> true, () -> Outcome.stopped(c, false)));
        assertEquals(Optional.empty(), c.stopReason(), "its siblings and its request go on");
        assertEquals(new Outcome.Cancelled(StopReason.SIBLING), OwnTimeout.under(() -> false, () -> Outcome.stopped(c, false)),
                "a timeout not yet passed is no reason");
    }

    @Test
    void aShutdownIsTheReasonOfEveryCallItStops() {
        RequestContext c = ctx();
        c.ledger().stopped(StopReason.SHUTDOWN);
        assertEquals(new Outcome.Cancelled(StopReason.SHUTDOWN), Outcome.stopped(c, false));
        assertEquals(new Outcome.Cancelled(StopReason.SHUTDOWN), Outcome.forwarded(UpstreamId.of("api"), 200,
                new java.io.IOException("interrupted"), c), "also a proxied body's copy it cut");
        assertEquals(new Outcome.Cancelled(StopReason.CLIENT_GONE), Outcome.forwarded(UpstreamId.of("api"), 200,
                new java.io.IOException("broken pipe"), ctx()), "without one, the client went away");
    }
}
