package io.loomgate.observe.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.call.Status;
import io.loomgate.observe.event.Answer;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.lang.management.MemoryMXBean;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The recent-requests buffer as pure logic: what it keeps, for how long, and that it stays bounded. */
class RecentRequestsTest {

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final RecentRequests recent = new RecentRequests(clock::get);
    private int next;

    private Timeline timeline(String status, double ms) {
        String id = "r-" + next++;
        return new Timeline(id, "/aggregate", "all", status, status.equals("ok") ? 200 : 502, clock.get(), 0.1, ms,
                2000, ms, "", List.of(new TimelineSpan("db", "", "success", OptionalDouble.of(0.2), ms - 0.2, "")));
    }

    private static Answer answer(String id, Status status, long tookMs) {
        long arrival = 5_000_000_000L;
        return new Answer(id, "", "/aggregate", "all", false, status, status.httpStatus(), List.of(), false,
                status == Status.OK ? Optional.empty() : Optional.of("db: refused"), Duration.ofMillis(1), Duration.ofSeconds(2),
                arrival, arrival + 100_000, arrival + tookMs * 1_000_000, List.of());
    }

    @Test
    void anAnswerIsKeptAsItCameAndReadAsTheTimelineItMakes() {
        Answer slow = answer("a-slow", Status.OK, 900);
        Answer failed = answer("a-failed", Status.FAILED, 3);
        recent.answered(slow);
        recent.answered(failed);
        for (int i = 0; i < 2 * RecentRequests.RECENT; i++) {
            recent.answered(answer("a-" + i, Status.OK, 2));
        }
        assertEquals(Timeline.of(slow, clock.get()), recent.find("a-slow").orElseThrow(), "read from the slowest set");
        assertEquals(Timeline.of(failed, clock.get()), recent.find("a-failed").orElseThrow(), "read from the failed set");
        assertEquals(List.of("a-failed"), recent.failed().stream().map(Timeline::id).toList());
        assertEquals("a-slow", recent.slowest().getFirst().id());
        assertEquals(clock.get() - 900, recent.slowest().getFirst().arrivedAtMs());
        assertEquals("a-" + (2 * RecentRequests.RECENT - 1), recent.recent().getFirst().id());
    }

    @Test
    void keepsTheLastRequestsNewestFirstAndFindsThemById() {
        for (int i = 0; i < RecentRequests.RECENT + 10; i++) {
            recent.record(timeline("ok", 10));
        }
        List<Timeline> last = recent.recent();
        assertEquals(RecentRequests.RECENT, last.size());
        assertEquals("r-" + (RecentRequests.RECENT + 9), last.getFirst().id());
        assertEquals("r-10", last.getLast().id());
        assertTrue(recent.find("r-10").isPresent());
        assertTrue(recent.find("r-9").isEmpty() || recent.slowest().stream().anyMatch(t -> t.id().equals("r-9")));
    }

    @Test
    void aFailedRequestOutlivesThousandsOfOrdinaryOnes() {
        recent.record(timeline("failed", 5));
        for (int i = 0; i < 5_000; i++) {
            recent.record(timeline("ok", 10));
        }
        assertTrue(recent.find("r-0").isPresent(), "the failed request is still held");
        assertEquals(List.of("r-0"), recent.failed().stream().map(Timeline::id).toList());
    }

    @Test
    void theSlowestAreKeptSlowestFirstAndLeaveAfterTheirWindow() {
        recent.record(timeline("ok", 900));
        recent.record(timeline("ok", 700));
        for (int i = 0; i < 5_000; i++) {
            recent.record(timeline("ok", 10 + (i % 7)));
        }
        List<Timeline> slowest = recent.slowest();
        assertEquals(RecentRequests.SLOWEST, slowest.size());
        assertEquals(List.of("r-0", "r-1"), slowest.subList(0, 2).stream().map(Timeline::id).toList());
        assertTrue(recent.find("r-0").isPresent());

        clock.addAndGet(RecentRequests.SLOW_WINDOW_MINUTES * 60_000L);
        recent.record(timeline("ok", 12));
        assertTrue(recent.find("r-0").isEmpty(), "five minutes later the slow request has left");
        assertTrue(recent.slowest().stream().noneMatch(t -> t.answeredMs() >= 700));
    }

    @Test
    void memoryStaysFlatWhateverTheLoad() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        record(20_000);
        long after20k = usedAfterGc(memory);
        record(400_000);
        long after420k = usedAfterGc(memory);
        int bound = RecentRequests.RECENT + RecentRequests.FAILED + RecentRequests.SLOWEST;
        assertTrue(recent.held() <= bound, "holds " + recent.held() + ", bound " + bound);
        long growth = after420k - after20k;
        // 400,000 more timelines of about 600 bytes each would be 240 MB if the buffer grew.
        assertTrue(growth < 8 * 1024 * 1024, "heap grew by " + growth / 1024 + " KB over 400,000 more requests");
    }

    private void record(int n) {
        for (int i = 0; i < n; i++) {
            recent.record(timeline(i % 10 == 0 ? "failed" : "ok", 5 + (i % 1000) / 10.0));
        }
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            best = Math.min(best, memory.getHeapMemoryUsage().getUsed());
        }
        return best;
    }
}
