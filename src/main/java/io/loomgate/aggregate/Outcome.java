package io.loomgate.aggregate;

import io.loomgate.service.ServiceValue;

/** How one part (one service call) of an aggregation ended, as the response reports it. */
public sealed interface Outcome {

    /** The JSON {@code state}: {@code success}, {@code failed}, {@code cancelled}, ... */
    String state();

    /** It returned a value. */
    record Success(ServiceValue value) implements Outcome {
        public String state() {
            return "success";
        }
    }

    /** It failed; {@code error} is safe to show. */
    record Failed(String error) implements Outcome {
        public String state() {
            return "failed";
        }
    }

    /** It was stopped because a sibling decided the outcome (a failure under "all", a win under "any"). */
    record Cancelled() implements Outcome {
        public String state() {
            return "cancelled";
        }
    }

    /** It was still running at the deadline, and was stopped. */
    record TimedOut() implements Outcome {
        public String state() {
            return "timeout";
        }
    }

    /** It failed or was late, and {@code value} stands in for it; {@code reason} says which. */
    record Fallback(ServiceValue value, String reason) implements Outcome {
        public String state() {
            return "fallback";
        }
    }

    /** CompletableFuture baselines only: still running when the response was written, and nothing stops it. */
    record Orphaned() implements Outcome {
        public String state() {
            return "orphaned";
        }
    }
}
