package io.loomgate.upstream;

import io.loomgate.core.port.Forward;
import io.loomgate.core.call.Attempts;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.core.port.Call;
import io.loomgate.core.port.RetryBudget;
import io.loomgate.http.Response;
import java.time.Duration;
import java.util.Set;

/**
 * Retries an upstream's calls, but only those it is safe to retry:
 * <ul>
 *   <li>an idempotent call: a plain call, a compose call whose method is GET, HEAD or OPTIONS or
 *       that is marked idempotent, never one that carries the client's body; a proxied GET, HEAD or
 *       OPTIONS without a body;</li>
 *   <li>that failed on its own: no connection, no complete answer within its own timeout, or a
 *       502, 503 or 504 (never a 4xx, a malformed answer, or a breaker that refused it);</li>
 *   <li>with time left before the request's deadline for the pause and another try;</li>
 *   <li>and a token from the upstream's {@link RetryBudget}, which hedge backups draw on too.</li>
 * </ul>
 * The tries of a retried call are kept for the request's timeline, and every try to an upstream with
 * several endpoints, with the endpoint it went to ({@link EndpointNote}); the budget's refusals are counted.
 */
final class Retrying implements Layered {

    private static final Set<Integer> RETRIED_STATUSES = Set.of(502, 503, 504);
    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS");

    private final UpstreamId id;
    private final Layered inner;
    private final RetrySettings settings;
    private final RetryBudget budget;
    private final RetryStats stats;
    private final boolean replicated;

    /** @param replicated the upstream has several endpoints: every try is kept, with the endpoint it went to */
    Retrying(UpstreamId id, Layered inner, RetrySettings settings, RetryBudget budget, RetryStats stats, boolean replicated) {
        this.id = id;
        this.inner = inner;
        this.settings = settings;
        this.budget = budget;
        this.stats = stats;
        this.replicated = replicated;
    }

    /** One try, whose failure may or may not be worth another. */
    @FunctionalInterface
    private interface Try<T> {
        T run() throws UpstreamFailure, InterruptedException;
    }

    @Override
    public Value call() throws UpstreamFailure, InterruptedException {
        return retried(inner::call, true);
    }

    @Override
    public Value call(Call call) throws UpstreamFailure, InterruptedException {
        boolean idempotent = call.body() == null && (IDEMPOTENT.contains(call.method()) || call.idempotent());
        return retried(() -> inner.call(call), idempotent);
    }

    /**
     * A proxied request is retried like a call. A 502, 503 or 504 answer is thrown away (its body
     * unread) and the request sent again only when another try is sure to go out; otherwise the
     * client gets that answer as it came.
     */
    @Override
    public Response forward(Forward forward) throws UpstreamFailure, InterruptedException {
        String length = forward.request().headers().first("Content-Length");
        boolean bodiless = (length == null || length.strip().equals("0"))
                && !forward.request().headers().contains("Transfer-Encoding");
        boolean once = settings.attempts() == 1 || !(bodiless && IDEMPOTENT.contains(forward.request().method()));
        budget.firstTrySent();
        if (once && !replicated) {
            return inner.forward(forward);
        }
        return noted(() -> forwarded(forward, once));
    }

    private Response forwarded(Forward forward, boolean once) throws UpstreamFailure, InterruptedException {
        RequestContext ctx = RequestContext.current();
        for (int n = 1; ; n++) {
            long start = System.nanoTime();
            Response r;
            try {
                r = inner.forward(forward);
            } catch (UpstreamFailure f) {
                failed(ctx, n, start, f, once);
                continue;
            } catch (InterruptedException e) {
                cancelled(ctx, n, start);
                throw e;
            }
            if (!once && RETRIED_STATUSES.contains(r.status()) && r.stream() != null && another(ctx, n)) {
                r.stream().writer().discard();
                record(ctx, n, start, Outcome.Kind.FAILED, id + ": answered HTTP " + r.status());
                pause();
                continue;
            }
            if (n > 1 || replicated) {
                record(ctx, n, start, r.status() < 500 ? Outcome.Kind.SUCCESS : Outcome.Kind.FAILED,
                        r.status() < 500 ? "" : id + ": answered HTTP " + r.status());
            }
            return r;
        }
    }

    @Override
    public void check(RequestContext request) {
        inner.check(request);
    }

    private <T> T retried(Try<T> attempt, boolean idempotent) throws UpstreamFailure, InterruptedException {
        budget.firstTrySent();
        boolean once = settings.attempts() == 1 || !idempotent;
        if (once && !replicated) {
            return attempt.run();
        }
        return noted(() -> tries(attempt, once));
    }

    private <T> T tries(Try<T> attempt, boolean once) throws UpstreamFailure, InterruptedException {
        RequestContext ctx = RequestContext.current();
        for (int n = 1; ; n++) {
            long start = System.nanoTime();
            try {
                T value = attempt.run();
                if (n > 1 || replicated) {
                    record(ctx, n, start, Outcome.Kind.SUCCESS, "");
                }
                return value;
            } catch (UpstreamFailure f) {
                failed(ctx, n, start, f, once);
            } catch (InterruptedException e) {
                cancelled(ctx, n, start);
                throw e;
            }
        }
    }

    /** Runs {@code work} with a note the upstream writes each try's endpoint in, when it has several. */
    private <T> T noted(Try<T> work) throws UpstreamFailure, InterruptedException {
        if (!replicated) {
            return work.run();
        }
        try {
            return ScopedValue.where(EndpointNote.CURRENT, new EndpointNote()).call(work::run);
        } catch (UpstreamFailure | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Try {@code n} ended as {@code outcome}: kept for the timeline, with the endpoint it went to. */
    private void record(RequestContext ctx, int n, long start, Outcome.Kind outcome, String reason) {
        String endpoint = replicated ? EndpointNote.CURRENT.get().take() : "";
        ctx.attempts().add(new Attempts.Attempt(id, n, start, System.nanoTime(), outcome, reason, endpoint));
    }

    /** Try {@code n} was cancelled (a hedge's loser, a sibling failed, the deadline): kept when the upstream has several endpoints. */
    private void cancelled(RequestContext ctx, int n, long start) {
        if (replicated) {
            record(ctx, n, start, Outcome.Kind.CANCELLED, "");
        }
    }

    /**
     * After try {@code n} failed with {@code f}: records it, and returns after the pause when
     * another try goes (never when {@code once}), else throws.
     */
    private void failed(RequestContext ctx, int n, long start, UpstreamFailure f, boolean once)
            throws UpstreamFailure, InterruptedException {
        boolean again = !once && retryable(f) && another(ctx, n);
        if (n > 1 || again || replicated) {
            record(ctx, n, start, f.outcome().kind(), f.getMessage());
        }
        if (!again) {
            throw n > 1 ? f.with(" (after " + n + " tries)") : f;
        }
        pause();
    }

    /** True, and a token spent, when try {@code n} may be followed by another: tries and time left, and the budget allows. */
    private boolean another(RequestContext ctx, int n) {
        if (n >= settings.attempts() || !timeLeft(ctx)) {
            return false;
        }
        if (!budget.trySpend()) {
            stats.refused();
            return false;
        }
        stats.sent();
        return true;
    }

    private void pause() throws InterruptedException {
        if (settings.backoff().isPositive()) {
            Thread.sleep(settings.backoff());
        }
    }

    private static boolean retryable(UpstreamFailure f) {
        if (f.refused() || f.malformed()) {
            return false;
        }
        return f.status().isEmpty() || RETRIED_STATUSES.contains(f.status().getAsInt());
    }

    /** Room before the deadline for the pause and a try at least as long as the pause. */
    private boolean timeLeft(RequestContext ctx) {
        Duration left = ctx.remaining();
        return left.compareTo(settings.backoff().multipliedBy(2).plusMillis(1)) > 0;
    }
}
