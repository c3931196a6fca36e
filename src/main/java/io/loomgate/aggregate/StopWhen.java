package io.loomgate.aggregate;

/** When a structured fan-out stops waiting and cancels the parts still running. */
public enum StopWhen {
    /** At the first failure ("all must succeed"). */
    FIRST_FAILURE,
    /** At the first success ("first success wins"). */
    FIRST_SUCCESS,
    /** Only when every part is done, or at the deadline (fallbacks). */
    ALL_DONE
}
