package io.loomgate.core.fanout;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import java.util.List;
import java.util.Map;

/**
 * How the parts of a fan-out are merged into one answer, and when the engine may stop waiting for
 * the rest ({@link #stopWhen()}). Merging is a pure function of what the engine saw, so each policy
 * is tested without threads or HTTP. Which engine runs the parts is the route's choice, not the
 * policy's.
 *
 * <pre>{@code
 * Policy.all();                                                  // every part must succeed
 * Policy.any();                                                  // the first success wins
 * Policy.withFallback(Map.of(UpstreamId.of("db"), Value.text("cached")));
 * }</pre>
 *
 * <p>Not sealed: nothing switches over the policies, so a new one is its class and its
 * {@link PolicyModule}, registered in one place ({@code Modules}); a hedge is built from its
 * settings ({@link HedgeSettings#build}), since it keeps state across requests.
 */
public interface Policy {

    /** The name route files and answers use: {@code single}, {@code all}, {@code any}, {@code fallback}, {@code quorum}, {@code hedge}. */
    String name();

    /** When the engine stops waiting and cancels the parts still running. */
    StopWhen stopWhen();

    /** Turns what the engine saw into an overall status, replacing parts where the policy says. */
    Aggregation merge(FanOutResult result);

    /**
     * The parts to run for one request, given one per upstream of the route. Most policies run them
     * as they are; a hedge runs its primary and a delayed backup.
     */
    default List<FanOut.Part> parts(List<FanOut.Part> perUpstream) {
        return perUpstream;
    }

    /** One upstream; its failure or timeout is the answer's. */
    static Policy single() {
        return new SinglePolicy();
    }

    /** Every part must succeed; the first failure cancels the rest at once. */
    static Policy all() {
        return new AllPolicy();
    }

    /** The first success wins and the others are cancelled; if all fail, every failure is reported. */
    static Policy any() {
        return new AnyPolicy();
    }

    /** {@code k} parts must succeed; the rest are cancelled at the k-th success, or as soon as k is out of reach. */
    static Policy quorum(int k) {
        return new QuorumPolicy(k);
    }

    /** A part that fails or is late is replaced by its fallback value; the answer is then degraded. */
    static Policy withFallback(Map<UpstreamId, Value> fallbacks) {
        return new FallbackPolicy(fallbacks);
    }
}
