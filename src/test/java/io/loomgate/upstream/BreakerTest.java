package io.loomgate.upstream;

import io.loomgate.core.port.Upstream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.Value;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The circuit breaker on a fake clock, around an upstream that counts its calls and fails on demand. */
class BreakerTest {

    private static final UpstreamId DB = UpstreamId.of("db");

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicBoolean failing = new AtomicBoolean(true);
    private final Upstream upstream = () -> {
        calls.incrementAndGet();
        if (failing.get()) {
            throw new UpstreamFailure(DB, "down");
        }
        return Value.text("up");
    };

    private Breaker breaker(BreakerSettings s) {
        return new Breaker(DB, s, clock::get);
    }

    /** The breaker's layer around the test's upstream, as the stack puts it. */
    private Upstream through(Breaker b) {
        return new Breaking(b, Layered.of(upstream));
    }

    private Value call(Breaker b) throws Exception {
        return call(through(b));
    }

    private String failure(Breaker b) {
        return failure(through(b));
    }

    private static Value call(Upstream u) throws Exception {
        return RequestContext.callWith(RequestContext.of("r", "/t", Duration.ofSeconds(5)), u::call);
    }

    private static String failure(Upstream u) {
        return assertThrows(UpstreamFailure.class, () -> call(u)).getMessage();
    }

    private void advance(Duration d) {
        clock.addAndGet(d.toNanos());
    }

    @Test
    void itOpensAfterNFailuresInARowAndThenFailsFastWithoutCalling() {
        Breaker b = breaker(new BreakerSettings(3, 1.0, 100, Duration.ofSeconds(5)));
        for (int i = 0; i < 3; i++) {
            assertEquals("db: down", failure(b));
        }
        assertEquals(Breaker.State.OPEN, b.snapshot().state());
        assertEquals(3, calls.get());
        String fast = failure(b);
        assertEquals("db: circuit open (3 failures in a row); not called; next try in 5s", fast);
        assertEquals(3, calls.get(), "an open breaker does not call the upstream");
    }

    @Test
    void aSuccessResetsTheRun() throws Exception {
        Breaker b = breaker(new BreakerSettings(3, 1.0, 100, Duration.ofSeconds(5)));
        failure(b);
        failure(b);
        failing.set(false);
        call(b);
        failing.set(true);
        failure(b);
        failure(b);
        assertEquals(Breaker.State.CLOSED, b.snapshot().state(), "two, a success, two: never three in a row");
    }

    @Test
    void itHalfOpensAfterTheCoolDownLetsOneProbeThroughAndClosesOnSuccess() throws Exception {
        Breaker b = breaker(new BreakerSettings(2, 1.0, 100, Duration.ofSeconds(5)));
        failure(b);
        failure(b);
        advance(Duration.ofMillis(4_999));
        assertTrue(failure(b).contains("circuit open"), "still cooling down");
        advance(Duration.ofMillis(1));
        failing.set(false);
        CountDownLatch inProbe = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean holdNext = new AtomicBoolean();
        Breaker slowProbe = new Breaker(DB, new BreakerSettings(2, 1.0, 100, Duration.ofSeconds(5)), clock::get);
        Upstream slowly = new Breaking(slowProbe, Layered.of(() -> {
            if (holdNext.get()) {
                inProbe.countDown();
                release.await();
            }
            return upstream.call();
        }));
        failing.set(true);
        failure(slowly);
        failure(slowly);
        advance(Duration.ofSeconds(5));
        failing.set(false);
        holdNext.set(true);
        Thread probe = Thread.ofVirtual().start(() -> {
            try {
                call(slowly);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertTrue(inProbe.await(5, TimeUnit.SECONDS));
        assertEquals(Breaker.State.HALF_OPEN, slowProbe.snapshot().state());
        assertEquals("db: circuit half-open (2 failures in a row); one probe call is in flight", failure(slowly),
                "a second call while the probe runs fails fast");
        holdNext.set(false);
        release.countDown();
        probe.join(Duration.ofSeconds(60));
        assertEquals(Breaker.State.CLOSED, slowProbe.snapshot().state());
        assertEquals(new Breaker.Snapshot(Breaker.State.CLOSED, 1, 1, 1), slowProbe.snapshot());
        assertEquals(Value.text("up"), call(slowly));
        assertEquals(Value.text("up"), call(b), "the first breaker's probe succeeds too");
        assertEquals(Breaker.State.CLOSED, b.snapshot().state());
    }

    @Test
    void aFailedProbeOpensItAgain() {
        Breaker b = breaker(new BreakerSettings(1, 1.0, 100, Duration.ofSeconds(2)));
        failure(b);
        advance(Duration.ofSeconds(2));
        assertEquals("db: down", failure(b), "the probe reached the upstream");
        assertEquals(Breaker.State.OPEN, b.snapshot().state());
        assertEquals(new Breaker.Snapshot(Breaker.State.OPEN, 2, 1, 0), b.snapshot());
        assertTrue(failure(b).contains("(the probe call failed)"));
    }

    @Test
    void itOpensWhenTheFailureRateOverTheWindowIsTooHigh() throws Exception {
        Breaker b = breaker(new BreakerSettings(100, 0.5, 10, Duration.ofSeconds(5)));
        for (int i = 0; i < 10; i++) {
            failing.set(i % 3 != 0);   // 6 of 10 fail, never 100 in a row
            try {
                call(b);
            } catch (UpstreamFailure expected) {
                // counted
            }
        }
        assertEquals(Breaker.State.OPEN, b.snapshot().state());
        assertTrue(failure(b).contains("6 of the last 10 calls failed"));
    }

    @Test
    void timeoutsCountButACancellationBySiblingDoesNot() throws Exception {
        Upstream sleeper = () -> {
            Thread.sleep(5_000);
            return Value.text("late");
        };
        Breaker b = new Breaker(DB, new BreakerSettings(1, 1.0, 100, Duration.ofSeconds(5)), clock::get);
        Upstream slow = new Breaking(b, Layered.of(sleeper));
        Thread cancelled = Thread.ofVirtual().start(() -> assertThrows(InterruptedException.class,
                () -> RequestContext.callWith(RequestContext.of("r1", "/t", Duration.ofSeconds(5)), slow::call)));
        cancelled.interrupt();  // whether it lands before or during the call, the call ends interrupted, before its deadline
        cancelled.join(Duration.ofSeconds(60));
        assertEquals(Breaker.State.CLOSED, b.snapshot().state(), "stopped by a sibling: not the upstream's fault");
        Thread timedOut = Thread.ofVirtual().start(() -> assertThrows(InterruptedException.class,
                () -> RequestContext.callWith(RequestContext.of("r2", "/t", Duration.ofNanos(1)), slow::call)));
        timedOut.interrupt();  // its deadline has passed by the time the interrupt lands
        timedOut.join(Duration.ofSeconds(60));
        assertEquals(Breaker.State.OPEN, b.snapshot().state(), "stopped at its deadline: a timeout counts");
    }
}
