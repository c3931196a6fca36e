package io.loomgate.core.call;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A request's tries: none kept until one is added, counted per upstream in the order they came. */
class AttemptsTest {

    private static Attempts.Attempt attempt(String upstream, int number) {
        return new Attempts.Attempt(new UpstreamId(upstream), number, 0, 1, Outcome.Kind.FAILED, "refused", "");
    }

    @Test
    void aRequestWithNoTryRecordedCountsNoneAndListsNone() {
        Attempts none = new Attempts();
        assertEquals(0, none.count(new UpstreamId("users")));
        assertEquals(List.of(), none.all());
    }

    @Test
    void eachUpstreamCountsItsOwnTriesOnly() {
        Attempts a = new Attempts();
        a.add(attempt("users", 1));
        a.add(attempt("orders", 1));
        a.add(attempt("users", 2));
        assertEquals(2, a.count(new UpstreamId("users")));
        assertEquals(1, a.count(new UpstreamId("orders")));
        assertEquals(0, a.count(new UpstreamId("stock")));
        assertEquals(List.of(attempt("users", 1), attempt("users", 2)), a.of(new UpstreamId("users")));
    }
}
