package io.loomgate.observe.event;

import io.loomgate.core.call.UpstreamId;
import java.time.Duration;
import java.util.List;

/**
 * The one sink every observation flows through: the request pipeline tells it about requests, the
 * upstream stack about calls, the routes about their answers. The metrics, the access log, the call
 * log and the recent requests' timelines each listen to what they need; {@link #all} joins them, so
 * they are wired once. Events come on the request's own threads: a listener must be cheap and must
 * not block. Every method does nothing unless a listener says otherwise.
 *
 * <pre>{@code
 * Events events = Events.all(metrics, new AccessLog(), recent);
 * }</pre>
 */
public interface Events {

    /** The route key of requests that matched no route: one key, so random paths cannot grow memory. */
    String UNMATCHED = "unmatched";

    /** Hears nothing. */
    Events NONE = new Events() {
    };

    /** A matched request's handler is about to run. */
    default void requestStarted(String route) {
    }

    /** A request is over: answered, or abandoned by its client. */
    default void requestFinished(RequestSummary request) {
    }

    /** A call leaves the upstream stack for {@code upstream}. */
    default void callStarted(UpstreamId upstream) {
    }

    /** A call came back through the upstream stack: once, however many tries it took. */
    default void callEnded(CallRecord call) {
    }

    /** A route answered: a fan-out or a composed route once decided; a proxy route once the answer's body ended. */
    default void answered(Answer answer) {
    }

    /** A part the answer no longer waited for (the CompletableFuture baseline's) ended {@code workAfterResponse} later. */
    default void orphanEnded(UpstreamId upstream, Duration workAfterResponse) {
    }

    /** One sink that tells each of {@code sinks}, in order. */
    static Events all(Events... sinks) {
        List<Events> all = List.of(sinks);
        return new Events() {
            @Override
            public void requestStarted(String route) {
                all.forEach(e -> e.requestStarted(route));
            }

            @Override
            public void requestFinished(RequestSummary request) {
                all.forEach(e -> e.requestFinished(request));
            }

            @Override
            public void callStarted(UpstreamId upstream) {
                all.forEach(e -> e.callStarted(upstream));
            }

            @Override
            public void callEnded(CallRecord call) {
                all.forEach(e -> e.callEnded(call));
            }

            @Override
            public void answered(Answer answer) {
                all.forEach(e -> e.answered(answer));
            }

            @Override
            public void orphanEnded(UpstreamId upstream, Duration workAfterResponse) {
                all.forEach(e -> e.orphanEnded(upstream, workAfterResponse));
            }
        };
    }
}
