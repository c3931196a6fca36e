package io.loomgate.core.call;

import java.util.function.BooleanSupplier;

/**
 * Whether the call running on this thread has been stopped by its own timeout (a composed call's
 * {@code "timeout"}): that call's reason, not its request's, so it is not kept on the request's
 * ledger but beside the call, for as long as it runs. The engine binds it where it arms the timeout;
 * {@link Outcome#stopped} reads it, so the call log, the timeline and the answer all say "timeout".
 */
public final class OwnTimeout {

    private static final ScopedValue<BooleanSupplier> PASSED = ScopedValue.newInstance();

    private OwnTimeout() {
    }

    /** Runs {@code work} as a call whose own timeout has passed when {@code passed} says so. */
    public static <T> T under(BooleanSupplier passed, ScopedValue.CallableOp<T, Exception> work) throws Exception {
        return ScopedValue.where(PASSED, passed).call(work);
    }

    /** True when the call on this thread runs under its own timeout and that timeout has passed. */
    public static boolean passed() {
        return PASSED.isBound() && PASSED.get().getAsBoolean();
    }
}
