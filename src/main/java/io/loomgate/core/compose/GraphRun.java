package io.loomgate.core.compose;

import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.engine.DrivenScope;
import io.loomgate.core.fanout.Failures;
import io.loomgate.core.port.Call;
import io.loomgate.core.port.Calls;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Placeholder;
import io.loomgate.core.template.Template;
import io.loomgate.core.template.UnsafeValue;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one request's call graph in one driven scope: forks each call the moment every call it needs
 * has succeeded (or, if optional, failed, its fallback standing in), never by level; a forEach call
 * runs once per element, at most its concurrency at a time, in the same scope. The first required
 * call to fail stops the graph: what still runs is cancelled, and no call that needed it starts.
 * A value of the request that cannot be put where a required call puts it ({@code ?name=..} as a
 * path segment, or absent) is the client's error: a 400, with every running call cancelled; an
 * optional call that cannot be sent ends as if it had failed (its fallback, or null, and a line in
 * {@code {errors}}).
 */
final class GraphRun implements DrivenScope.Body {

    /** Room for each call's elements in a task id: call * SLOTS + element + 1, and call * SLOTS for the call itself. */
    static final int SLOTS = 100_000;

    private final CallGraph graph;
    private final Calls upstreams;
    private final RequestContext ctx;
    private final byte[] body;
    private final Optional<String> contentType;
    final CallState[] states;
    private int running;
    /** Bytes of answers held so far, against the graph's maxBytes. */
    private long held;
    /** The required call whose failure stopped the graph, or -1. */
    int stoppedBy = -1;

    GraphRun(CallGraph graph, Calls upstreams, RequestContext ctx, byte[] body, Optional<String> contentType) {
        this.graph = graph;
        this.upstreams = upstreams;
        this.ctx = ctx;
        this.body = body;
        this.contentType = contentType;
        this.states = new CallState[graph.calls().size()];
        for (int i = 0; i < states.length; i++) {
            states[i] = new CallState();
        }
    }

    @Override
    public void run(DrivenScope scope) throws InterruptedException {
        forkReady(scope);
        while (running > 0 && stoppedBy < 0) {
            DrivenScope.Ended e = scope.next();
            running--;
            ended(scope, e);
            if (stoppedBy < 0) {
                forkReady(scope);
            }
        }
    }

    private void forkReady(DrivenScope scope) {
        boolean forked = true;
        while (forked && stoppedBy < 0) {
            forked = false;
            for (int i = 0; i < states.length && stoppedBy < 0; i++) {
                if (states[i].phase == CallState.Phase.WAITING && ready(graph.calls().get(i))) {
                    start(scope, i);
                    forked = true;
                }
            }
        }
    }

    private boolean ready(CallSpec spec) {
        for (String need : spec.needs()) {
            int j = graph.indexOf(need);
            if (!states[j].usable(graph.calls().get(j))) {
                return false;
            }
        }
        return true;
    }

    private void start(DrivenScope scope, int i) {
        CallSpec spec = graph.calls().get(i);
        CallState state = states[i];
        state.phase = CallState.Phase.RUNNING;
        if (spec.forEach().isEmpty()) {
            fork(scope, i, -1, null);
            return;
        }
        CallSpec.ForEach each = spec.forEach().get();
        Object source = Template.field(states[graph.indexOf(each.source())].value, each.fields());
        if (source == null) {
            state.items = List.of();
        } else if (!(source instanceof List<?> list)) {
            fail(i, each + " is not an array, so " + spec.name() + " has nothing to run for each of", null);
            return;
        } else if (list.size() > each.maxItems()) {
            fail(i, each + " has " + list.size() + " elements, over " + spec.name() + "'s maxItems of " + each.maxItems(), null);
            return;
        } else {
            state.items = list;
        }
        state.answers = new Object[state.items.size()];
        if (state.items.isEmpty()) {
            long now = System.nanoTime();   // it ran, at once, for no element: not a call that never started
            state.began(now);
            state.ended(now);
            succeed(i, List.of());
            return;
        }
        while (state.nextItem < state.items.size() && state.itemsRunning < each.concurrency() && stoppedBy < 0) {
            forkItem(scope, i);
        }
    }

    private void forkItem(DrivenScope scope, int i) {
        CallState state = states[i];
        int item = state.nextItem++;
        state.itemsRunning++;
        fork(scope, i, item, state.items.get(item));
    }

    /** Fills the call in and forks it; a value that cannot be sent fails the call without a fork. */
    private void fork(DrivenScope scope, int i, int item, Object element) {
        CallSpec spec = graph.calls().get(i);
        Call call;
        try {
            call = shape(spec, element);
        } catch (UnsafeValue e) {
            if (Bindings.ofRequest(e.placeholder(), graph.parameters()) && !spec.optional()) {
                throw HttpError.badRequest("bad_value", spec.name() + " cannot be sent: " + e.getMessage());
            }
            fail(i, spec.name() + " cannot be sent: " + e.getMessage(), null);   // an optional call ends as if it had failed
            return;
        }
        running++;
        String name = item < 0 ? spec.name() : spec.name() + "[" + item + "]";
        scope.fork(i * SLOTS + item + 1, name, () -> upstreams.call(spec.upstream(), call), spec.timeout());
    }

    private Call shape(CallSpec spec, Object element) throws UnsafeValue {
        Template.Values values = p -> value(p, element);
        String target = spec.path().isPresent() ? spec.path().get().url(values) : "";
        Headers.Builder headers = Headers.builder();
        for (Map.Entry<String, Template> h : spec.headers().entrySet()) {
            headers.add(h.getKey(), h.getValue().render(values, Template.Encoding.HEADER_VALUE));
        }
        byte[] sent = spec.sendsBody() ? body : null;
        return new Call(spec.method(), target, headers.build(), sent, spec.sendsBody() ? contentType : Optional.empty(), spec.timeout(),
                spec.idempotent(), spec.extensions());
    }

    /** What a placeholder of a call stands for: the request's own values, an earlier call's answer, or the element. */
    private Object value(Placeholder p, Object element) {
        if (p.head().equals("item")) {
            return Template.field(element, p.fields());
        }
        int j = graph.indexOf(p.head());
        if (j >= 0) {
            return Template.field(states[j].value, p.fields());
        }
        return Bindings.request(ctx, p);
    }

    private void ended(DrivenScope scope, DrivenScope.Ended e) {
        int i = e.id() / SLOTS;
        int item = e.id() % SLOTS - 1;
        CallState state = states[i];
        state.began(e.startNanos());
        state.ended(e.endNanos());
        if (state.settled()) {
            return;   // an element of a forEach call that an earlier element already failed: not needed
        }
        if (!e.succeeded()) {
            fail(i, reason(graph.calls().get(i), item, e.failure()), e.failure());
            return;
        }
        held += e.value().size();
        if (held > graph.maxBytes()) {
            String label = item < 0 ? graph.calls().get(i).name() : graph.calls().get(i).name() + "[" + item + "]";
            fail(i, label + ": the answers of this request passed the route's maxBytes (" + graph.maxBytes() + " bytes)", null);
            stoppedBy = stoppedBy < 0 ? i : stoppedBy;   // the request's memory, not the call's: an optional call stops it too
            return;
        }
        Object answer = e.value().tree();
        if (item < 0) {
            succeed(i, answer);
            return;
        }
        state.answers[item] = answer;
        state.itemsRunning--;
        state.itemsDone++;
        if (state.itemsDone == state.items.size()) {
            succeed(i, Collections.unmodifiableList(Arrays.asList(state.answers)));   // an element may answer null
        } else if (state.nextItem < state.items.size()) {
            forkItem(scope, i);
        }
    }

    private void succeed(int i, Object value) {
        states[i].phase = CallState.Phase.SUCCEEDED;
        states[i].value = value;
    }

    private void fail(int i, String reason, Throwable failure) {
        CallSpec spec = graph.calls().get(i);
        CallState state = states[i];
        state.phase = CallState.Phase.FAILED;
        state.reason = reason;
        state.failure = failure;
        if (spec.optional()) {
            state.value = spec.fallback().orElse(null);
        } else if (stoppedBy < 0) {
            stoppedBy = i;
        }
    }

    /** Why a call (or, {@code item >= 0}, one element of it) failed, starting with the upstream's or the call's name. */
    private static String reason(CallSpec spec, int item, Throwable failure) {
        String label = item < 0 ? spec.name() : spec.name() + "[" + item + "]";
        return switch (failure) {
            case UpstreamFailure f -> item < 0 ? f.getMessage() : label + ": " + f.getMessage();
            case DrivenScope.TimedOut t -> label + ": " + t.getMessage();
            case InterruptedException x -> label + ": cancelled";
            default -> label + ": " + Failures.failed(spec.upstream(), failure).reason();
        };
    }
}
