package io.loomgate.upstream.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Balancing and outlier ejection, on made-up endpoints and a clock the test turns. */
class FleetTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private static final Outliers THREE = new Outliers(3, Duration.ofSeconds(10), 50, Outliers.DEFAULT_FAIL_ON);

    private Fleet<String> fleet(Balance b, String... keys) {
        return new Fleet<>(List.of(keys), k -> k, b, THREE, now::get);
    }

    @Test
    void roundRobinTakesEachInTurn() {
        Fleet<String> f = fleet(Balance.ROUND_ROBIN, "a", "b", "c");
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            picked.add(f.pick(Set.of(), "").key());
        }
        assertEquals(List.of("a", "b", "c", "a", "b", "c"), picked);
    }

    @Test
    void leastRequestNeverTakesTheBusierOfTwo() {
        Fleet<String> f = fleet(Balance.LEAST_REQUEST, "a", "b");
        Fleet.Member<String> a = f.members().get(0);
        for (int i = 0; i < 5; i++) {
            a.started();
        }
        for (int i = 0; i < 50; i++) {
            assertEquals("b", f.pick(Set.of(), "").key(), "of two, the one with fewer calls");
        }
    }

    @Test
    void aRequestsNextTryGoesElsewhereWhileThereIsElsewhere() {
        Fleet<String> f = fleet(Balance.LEAST_REQUEST, "a", "b", "c");
        for (int i = 0; i < 50; i++) {
            assertFalse(Set.of("a", "b").contains(f.pick(Set.of("a", "b"), "").key()));
        }
        assertTrue(Set.of("a", "b", "c").contains(f.pick(Set.of("a", "b", "c"), "").key()), "all used: any of them");
    }

    @Test
    void twoCopiesOfOneRequestChoosingAtOnceGoToTwoEndpoints() throws Exception {
        Fleet<String> f = fleet(Balance.HASH, "a", "b", "c");   // one key: without the other's pick, both take its owner
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < 2_000; round++) {
                Set<String> tried = java.util.concurrent.ConcurrentHashMap.newKeySet();
                var bothReady = new java.util.concurrent.CyclicBarrier(2);
                java.util.concurrent.Callable<String> copy = () -> {
                    bothReady.await();
                    return f.pickFor(tried, "user-7").key();
                };
                var first = pool.submit(copy);
                var second = pool.submit(copy);
                String one = first.get();
                String other = second.get();
                assertFalse(one.equals(other), "round " + round + ": both copies went to " + one);
                assertEquals(Set.of(one, other), tried, "each pick is remembered for the request's next try");
            }
        }
    }

    @Test
    void aHashKeyStaysOnItsEndpointAndOnlyTheLeaversKeysMove() {
        Fleet<String> four = fleet(Balance.HASH, "a", "b", "c", "d");
        Fleet<String> three = fleet(Balance.HASH, "a", "b", "c");
        Map<String, Integer> load = new HashMap<>();
        int moved = 0;
        int keys = 4000;
        for (int i = 0; i < keys; i++) {
            String key = "user-" + i;
            String before = four.pick(Set.of(), key).key();
            assertEquals(before, four.pick(Set.of(), key).key(), "the same key, the same endpoint");
            load.merge(before, 1, Integer::sum);
            String after = three.pick(Set.of(), key).key();
            if (!before.equals("d")) {
                assertEquals(before, after, "a key whose endpoint stayed does not move");
            } else {
                moved++;
            }
        }
        assertTrue(moved > keys / 4 * 0.8 && moved < keys / 4 * 1.2, "about 1/N moved: " + moved);
        load.values().forEach(n -> assertTrue(n > keys / 4 * 0.8 && n < keys / 4 * 1.2, "spread: " + load));
    }

    @Test
    void consecutiveFailuresEjectForLongerEachTimeAndNeverTooMany() {
        Fleet<String> f = fleet(Balance.ROUND_ROBIN, "a", "b", "c", "d");
        Fleet.Member<String> a = f.members().get(0);
        Fleet.Member<String> b = f.members().get(1);
        Fleet.Member<String> c = f.members().get(2);
        fail(f, a, 2);
        f.ended(started(a), false);   // a success resets the count
        fail(f, a, 2);
        assertFalse(f.ejected(a));
        fail(f, a, 1);
        assertTrue(f.ejected(a), "three in a row");
        for (int i = 0; i < 12; i++) {
            assertTrue(!f.pick(Set.of(), "").key().equals("a"), "an ejected endpoint takes no call");
        }
        fail(f, b, 3);
        fail(f, c, 3);
        assertTrue(f.ejected(b) && !f.ejected(c), "at most half of four at once");

        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertFalse(f.ejected(a), "back after the base time");
        fail(f, a, 3);
        now.addAndGet(Duration.ofSeconds(15).toNanos());
        assertTrue(f.ejected(a), "the second ejection lasts twice as long");
        now.addAndGet(Duration.ofSeconds(5).toNanos());
        assertFalse(f.ejected(a));
    }

    @Test
    void whenEveryEndpointIsEjectedItBalancesOverAllOfThem() {
        Fleet<String> f = new Fleet<>(List.of("a", "b"), k -> k, Balance.ROUND_ROBIN, new Outliers(1, Duration.ofSeconds(10), 100, Outliers.DEFAULT_FAIL_ON),
                now::get);
        fail(f, f.members().get(0), 1);
        fail(f, f.members().get(1), 1);
        assertTrue(f.ejected(f.members().get(0)) && f.ejected(f.members().get(1)));
        assertEquals(Set.of("a", "b"), Set.of(f.pick(Set.of(), "").key(), f.pick(Set.of(), "").key()), "panic: all of them");
    }

    private static Fleet.Member<String> started(Fleet.Member<String> m) {
        m.started();
        return m;
    }

    private static void fail(Fleet<String> f, Fleet.Member<String> m, int times) {
        for (int i = 0; i < times; i++) {
            f.ended(started(m), true);
        }
    }

    @Test
    void aReplacedFleetKeepsTheMembersItStillHasWithWhatIsKnownOfThem() {
        Fleet<String> f = fleet(Balance.HASH, "a", "b", "c");
        Fleet.Member<String> b = f.members().get(1);
        b.started();
        for (int i = 0; i < 3; i++) {
            b.started();
            f.ended(b, true);   // three failures in a row: b is ejected
        }
        assertTrue(f.ejected(b));

        List<Fleet.Member<String>> removed = f.replace(List.of("b", "c", "d"));
        assertEquals(List.of("a"), removed.stream().map(Fleet.Member::key).toList());
        assertEquals(List.of("b", "c", "d"), f.members().stream().map(Fleet.Member::key).toList());
        assertTrue(f.members().getFirst() == b, "b keeps its member");
        assertEquals(1, b.outstanding(), "and its call in flight");
        assertTrue(f.ejected(b), "and its ejection");
        for (int i = 0; i < 50; i++) {
            String k = f.pick(Set.of(), "key-" + i).key();
            assertTrue(Set.of("c", "d").contains(k), "the ring is the new fleet's, without the ejected b: " + k);
        }
    }
}
