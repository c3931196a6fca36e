package io.loomgate.core.fanout;

/**
 * When a structured fan-out has its answer and stops waiting, cancelling the parts still running:
 * a rule over how many parts have succeeded and failed so far.
 *
 * <pre>{@code
 * StopWhen.FIRST_FAILURE   // "all must succeed"
 * StopWhen.quorum(2)       // 2 successes decide; so does a failure count that makes 2 unreachable
 * }</pre>
 */
@FunctionalInterface
public interface StopWhen {

    /**
     * @param succeeded parts that have succeeded so far
     * @param failed    parts that have failed so far
     * @param parts     parts in the fan-out
     * @return true when the answer is decided and the rest may be cancelled
     */
    boolean decided(int succeeded, int failed, int parts);

    /** At the first failure ("all must succeed"). */
    StopWhen FIRST_FAILURE = (succeeded, failed, parts) -> failed > 0;

    /** At the first success ("first success wins"). */
    StopWhen FIRST_SUCCESS = (succeeded, failed, parts) -> succeeded > 0;

    /** Only when every part is done, or at the deadline (fallbacks). */
    StopWhen ALL_DONE = (succeeded, failed, parts) -> false;

    /** At {@code k} successes, or as soon as so many have failed that {@code k} cannot be reached. */
    static StopWhen quorum(int k) {
        return (succeeded, failed, parts) -> succeeded >= k || failed > parts - k;
    }
}
