package io.loomgate.observe.timeline;

import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.observe.event.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One fan-out or composed request as the dashboard draws it: every time in milliseconds from the moment its
 * first byte arrived.
 *
 * @param id         the request id ({@code X-Request-Id})
 * @param route      the route's path
 * @param policy     the merge policy, or the CompletableFuture engine's name
 * @param status     the aggregation's status ({@code ok}, {@code degraded}, {@code failed}, {@code timeout})
 * @param httpStatus the status the client got
 * @param arrivedAtMs the arrival, in milliseconds since the epoch
 * @param forkMs     when the fan-out began
 * @param decidedMs  when the policy knew the answer (the scope's join returned)
 * @param deadlineMs when the request's deadline falls
 * @param answeredMs when the answer was ready to write
 * @param error      what went wrong, for failed and timed-out answers; empty otherwise
 * @param spans      one per part, in the route's order
 * @param attempts   each try of the calls that were retried or went to an upstream with several endpoints, in
 *                   the order they ended; empty when none was
 * @param clientId   the client's own {@code X-Request-Id} when it was kept beside loomgate's id; empty otherwise
 * @param cache      how each call through a cache was served ({@code loomgate/db; hit}); empty when none was
 */
public record Timeline(String id, String route, String policy, String status, int httpStatus, long arrivedAtMs,
                       double forkMs, double decidedMs, double deadlineMs, double answeredMs, String error,
                       List<TimelineSpan> spans, List<TimelineAttempt> attempts, String clientId, List<String> cache,
                       Optional<TransferSpan> transfer) {

    public Timeline {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(error, "error");
        error = TimelineSpan.cut(error);
        spans = List.copyOf(spans);
        attempts = List.copyOf(attempts);
        Objects.requireNonNull(transfer, "transfer");
        Objects.requireNonNull(clientId, "clientId");
        cache = List.copyOf(cache);
    }

    /** A timeline without retried calls. */
    public Timeline(String id, String route, String policy, String status, int httpStatus, long arrivedAtMs, double forkMs,
                    double decidedMs, double deadlineMs, double answeredMs, String error, List<TimelineSpan> spans) {
        this(id, route, policy, status, httpStatus, arrivedAtMs, forkMs, decidedMs, deadlineMs, answeredMs, error, spans,
                List.of(), "", List.of(), Optional.empty());
    }

    /** The same, with its tries, client id and cache statuses, and not proxied. */
    public Timeline(String id, String route, String policy, String status, int httpStatus, long arrivedAtMs, double forkMs,
                    double decidedMs, double deadlineMs, double answeredMs, String error, List<TimelineSpan> spans,
                    List<TimelineAttempt> attempts, String clientId, List<String> cache) {
        this(id, route, policy, status, httpStatus, arrivedAtMs, forkMs, decidedMs, deadlineMs, answeredMs, error, spans,
                attempts, clientId, cache, Optional.empty());
    }

    /** This timeline, with the client's own request id beside loomgate's. */
    public Timeline withClientId(String client) {
        return new Timeline(id, route, policy, status, httpStatus, arrivedAtMs, forkMs, decidedMs, deadlineMs, answeredMs,
                error, spans, attempts, client, cache, transfer);
    }

    /** The timeline of {@code answer}. */
    public static Timeline of(Answer answer) {
        return of(answer, System.currentTimeMillis());
    }

    /** The timeline of {@code answer}, which was ready at {@code answeredAtMs} (milliseconds since the epoch). */
    static Timeline of(Answer answer, long answeredAtMs) {
        double fork = millis(answer.forkNanos() - answer.arrivalNanos());
        long arrivedAt = arrivalOf(answer, answeredAtMs);
        List<TimelineAttempt> tries = answer.attempts().stream().map(a -> new TimelineAttempt(a.upstream().value(), a.number(),
                millis(a.startNanos() - answer.arrivalNanos()), millis(a.endNanos() - a.startNanos()), a.outcome().wire(),
                a.reason(), a.endpoint())).toList();
        return new Timeline(answer.requestId(), answer.route(), answer.label(), answer.status().wire(), answer.httpStatus(),
                arrivedAt, fork, fork + millis(answer.decided().toNanos()), millis(answer.timeout().toNanos()),
                answeredAfter(answer), answer.error().orElse(""), spans(answer), tries,
                answer.clientId(), answer.cache(), answer.transfer().map(t -> new TransferSpan(t.bytesIn(), t.bytesOut(),
                        millis(t.firstByteNanos() - answer.arrivalNanos()), millis(t.lastByteNanos() - answer.arrivalNanos()),
                        t.endpoint())));
    }

    /** When {@code answer}'s request arrived, in milliseconds since the epoch, its answer ready at {@code answeredAtMs}. */
    static long arrivalOf(Answer answer, long answeredAtMs) {
        return answeredAtMs - (answer.answerNanos() - answer.arrivalNanos()) / 1_000_000;
    }

    /** When {@code answer} was ready, in milliseconds from its request's arrival. */
    static double answeredAfter(Answer answer) {
        return millis(answer.answerNanos() - answer.arrivalNanos());
    }

    /** One span per call of {@code answer}, in milliseconds from its arrival. */
    static List<TimelineSpan> spans(Answer answer) {
        double fork = millis(answer.forkNanos() - answer.arrivalNanos());
        List<TimelineSpan> spans = new ArrayList<>(answer.calls().size());
        for (int i = 0; i < answer.calls().size(); i++) {
            FinishedCall p = answer.calls().get(i);
            OptionalDouble start = p.start().map(s -> OptionalDouble.of(fork + millis(s.toNanos())))
                    .orElse(OptionalDouble.empty());
            String copy = answer.hedge() ? (i == 0 ? "primary" : "backup") : "";
            spans.add(new TimelineSpan(p.name(), copy, p.outcome().state(), start, millis(p.duration().toNanos()),
                    detail(p.outcome())));
        }
        return spans;
    }

    /** True for an answer that was not {@code ok}: the buffer keeps these longer. */
    public boolean failed() {
        return !status.equals("ok");
    }

    private static String detail(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Failed f -> f.reason();
            case Outcome.Fallback f -> f.reason();
            case Outcome.Cancelled c -> c.why().why();
            default -> "";
        };
    }

    /** Milliseconds with a tenth: enough to see a 52.3 ms cancel, short on the wire. */
    private static double millis(long nanos) {
        return Math.round(nanos / 100_000.0) / 10.0;
    }
}
