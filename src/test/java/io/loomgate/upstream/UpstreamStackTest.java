package io.loomgate.upstream;

import io.loomgate.core.port.Upstream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.Overrides;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.http.QueryParams;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The order of an upstream's layers, seen from what each one does to the others. */
class UpstreamStackTest {

    private static final UpstreamId DB = UpstreamId.of("db");

    @Test
    void theLayersAreDeclaredInnermostFirst() {
        assertEquals(java.util.List.of("faults", "breaker", "retry", "record"),
                UpstreamStack.LAYERS.stream().map(UpstreamStack.Layer::name).toList());
    }

    @Test
    void eachRetryGoesThroughTheBreakerAndTheCallLogSeesOneCall() {
        AtomicInteger reached = new AtomicInteger();
        Upstream down = () -> {
            reached.incrementAndGet();
            throw new UpstreamFailure(DB, "down");
        };
        Upstreams u = Upstreams.builder(OptionalLong.empty())
                .add(DB, down, Faults.NONE, new BreakerSettings(2, 1.0, 20, Duration.ofSeconds(30)))
                .retry(DB, new RetrySettings(3, Duration.ZERO, 1.0, 100))
                .build();
        UpstreamFailure f = assertThrows(UpstreamFailure.class, () -> RequestContext.callWith(
                RequestContext.of("r1", "/t", Duration.ofSeconds(5)), () -> u.get(DB).call()));

        assertEquals(2, reached.get(), "two tries opened the breaker, which refused the third without calling");
        assertTrue(f.getMessage().startsWith("db: circuit open (2 failures in a row)"), f.getMessage());
        assertEquals(1, u.calls().callsOf("r1").size(), "recorded once, outside the retries");
        assertEquals(Breaker.State.OPEN, u.breakers().get(DB).state());
    }

    @Test
    void anInjectedFailureLooksToTheBreakerLikeTheUpstreamsOwn() {
        Upstreams u = Upstreams.builder(OptionalLong.empty())
                .add(DB, () -> Value.text("up"), Faults.NONE, new BreakerSettings(1, 1.0, 20, Duration.ofSeconds(30)))
                .build();
        Overrides fail = new Overrides(Map.of(), Set.of(DB));
        assertThrows(UpstreamFailure.class, () -> RequestContext.callWith(
                RequestContext.of("r1", "/t", Duration.ofSeconds(5), QueryParams.parse(null), fail), () -> u.get(DB).call()));
        assertEquals(Breaker.State.OPEN, u.breakers().get(DB).state(), "?fail= is inside the breaker");
        assertEquals(new Outcome.Failed("db: failed on request (?fail=db)"), u.calls().callsOf("r1").getFirst().outcome());
    }

    @Test
    void onlyAnUpstreamThatForwardsHasAForwardingPort() {
        Upstreams u = Upstreams.builder(OptionalLong.empty()).add(DB, () -> Value.text("up"), Faults.NONE).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> u.forwarder(DB));
        assertEquals("upstream 'db' cannot forward a request", e.getMessage());
    }
}
