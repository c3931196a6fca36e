package io.loomgate.edge.pipeline;

import io.loomgate.http.HttpError;
import io.loomgate.http.Response;
import java.util.Map;

/**
 * The admission limit ({@code --max-inflight}, {@link Admission}): a request over it is shed at
 * once with 503 and {@code Retry-After} rather than queued; one under it is admitted, holds its
 * place until its answer is written, and its work moves to the {@link Handoff}. Operator routes
 * are not counted, and answer on the thread that read them.
 */
final class AdmissionFilter implements Filter {

    private final Admission admission;

    AdmissionFilter(Admission admission) {
        this.admission = admission;
    }

    @Override
    public String name() {
        return "admission";
    }

    @Override
    public Response onRequest(Visit v) {
        if (v.matched().exempt()) {
            return null;
        }
        if (!admission.tryEnter()) {
            throw new HttpError(503, "overloaded", "more than " + admission.max()
                    + " requests are in flight; retry shortly", Map.of(), Map.of("Retry-After", "1"));
        }
        v.admit();
        return null;
    }

    @Override
    public void onEnd(Visit v) {
        if (v.admitted()) {
            admission.exit();
        }
    }
}
