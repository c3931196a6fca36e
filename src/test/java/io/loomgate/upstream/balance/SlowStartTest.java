package io.loomgate.upstream.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code "slowStart"} on made-up endpoints and a clock the test turns: an endpoint that comes back
 * from an ejection takes a tenth of its share at first and all of it once the window has passed;
 * one in the fleet from the start takes its share at once.
 */
class SlowStartTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private static final Duration WINDOW = Duration.ofSeconds(30);

    @Test
    void theWeightGrowsLinearlyFromATenthToAll() {
        SlowStart s = new SlowStart(WINDOW);
        long since = 1_000;
        assertEquals(1.0, s.weight(0, since), "not warming");
        assertEquals(0.1, s.weight(since, since), "a tenth at first");
        assertEquals(0.5, s.weight(since, since + WINDOW.toNanos() / 2), 1e-9);
        assertEquals(1.0, s.weight(since, since + WINDOW.toNanos()));
        assertEquals(1.0, SlowStart.NONE.weight(since, since), "no window: no slow start");
    }

    private static int share(Fleet<String> f, String key, int picks) {
        int n = 0;
        for (int i = 0; i < picks; i++) {
            Fleet.Member<String> m = f.pick(Set.of(), "");
            n += m.key().equals(key) ? 1 : 0;
        }
        return n;
    }

    private Fleet<String> ejectedB(Balance balance) {
        Fleet<String> f = new Fleet<>(List.of("a", "b"), k -> k, balance, new Outliers(1, Duration.ofSeconds(10), 50,
                Outliers.DEFAULT_FAIL_ON), now::get, new SlowStart(WINDOW));
        Fleet.Member<String> b = f.members().get(1);
        b.started();
        f.ended(b, true);   // ejected for 10 s
        assertTrue(f.ejected(b));
        now.addAndGet(Duration.ofSeconds(11).toNanos());
        assertTrue(!f.ejected(b), "its ejection is over: it comes back, warming");
        return f;
    }

    @Test
    void roundRobinGivesAReturningEndpointAGrowingShare() {
        assertEquals(1000, share(new Fleet<>(List.of("a", "b"), k -> k, Balance.ROUND_ROBIN, Outliers.DEFAULT, now::get,
                new SlowStart(WINDOW)), "b", 2000), "from the start: its whole share");
        Fleet<String> f = ejectedB(Balance.ROUND_ROBIN);
        int cold = share(f, "b", 2000);
        assertTrue(cold < 400, "about a tenth of its 1,000 at first: " + cold);
        now.addAndGet(WINDOW.toNanos());
        int warm = share(f, "b", 2000);
        assertEquals(1000, warm, "the window passed: its whole share");
    }

    @Test
    void leastRequestCountsAWarmingEndpointsCallsAsHeavier() {
        Fleet<String> f = ejectedB(Balance.LEAST_REQUEST);
        Fleet.Member<String> a = f.members().get(0);
        for (int i = 0; i < 5; i++) {
            a.started();   // a has 5 calls: (5+1)/1 = 6 against b's (0+1)/0.1 = 10
        }
        assertEquals(0, share(f, "b", 200), "b, warming, weighs more with no call than a with five");
        now.addAndGet(WINDOW.toNanos());
        assertEquals(200, share(f, "b", 200), "warm: the idler one");
    }
}
