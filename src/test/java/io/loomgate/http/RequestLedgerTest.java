package io.loomgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The endpoints a request's tries went to: the last one per upstream is what its access log names. */
class RequestLedgerTest {

    @Test
    void theLastTryOfEachUpstreamIsNamedAndAnUpstreamNeverTriedIsEmpty() {
        RequestLedger ledger = new RequestLedger();
        assertEquals(Optional.empty(), ledger.lastTried("users"));
        ledger.tried("users", "http://a:1");
        ledger.tried("orders", "http://c:3");
        ledger.tried("users", "http://b:2");   // a retry, to another replica
        assertEquals(Optional.of("http://b:2"), ledger.lastTried("users"));
        assertEquals(Optional.of("http://c:3"), ledger.lastTried("orders"));
        assertEquals(Optional.empty(), ledger.lastTried("billing"));
    }

    @Test
    void triesFromSubtasksAtOnceAreEachKeptAndTheLastIsOneOfThem() throws Exception {
        RequestLedger ledger = new RequestLedger();
        CountDownLatch go = new CountDownLatch(1);
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            var tries = IntStream.range(0, 64).mapToObj(i -> threads.submit(() -> {
                go.await();
                ledger.tried("u" + (i % 4), "http://e" + i);
                return null;
            })).toList();
            go.countDown();
            for (Future<?> f : tries) {
                f.get();
            }
        }
        for (int u = 0; u < 4; u++) {
            String last = ledger.lastTried("u" + u).orElseThrow();
            int endpoint = Integer.parseInt(last.substring("http://e".length()));
            assertEquals(u, endpoint % 4, "u" + u + "'s last try was one of its own: " + last);
        }
        assertTrue(Set.of("u0", "u1", "u2", "u3").stream().allMatch(u -> ledger.lastTried(u).isPresent()));
    }
}
