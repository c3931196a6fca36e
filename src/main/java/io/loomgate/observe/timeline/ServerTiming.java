package io.loomgate.observe.timeline;

import io.loomgate.observe.event.Answer;
import java.util.List;

/**
 * The {@code Server-Timing} header of a fan-out answer (W3C Server Timing): one entry per part, with
 * how long it ran and how it ended, which browsers' developer tools show beside the request:
 * {@code db;dur=52.3;desc="cancelled", file;dur=50.1;desc="failed"}. A part that never started has
 * {@code dur=0}; a hedge's copies say which they were ({@code desc="cancelled, primary"}). A composed
 * route's calls also say when each started, in milliseconds from the request's first byte
 * ({@code user;start=0.4;dur=61.2;desc="success"}), so its critical path can be read off the header.
 * Each try to an upstream with several endpoints follows, naming its endpoint
 * ({@code db-try1;dur=51.0;desc="success"}: the try, never its endpoint's address, which the timeline keeps).
 */
public final class ServerTiming {

    private ServerTiming() {
    }

    public static String header(Answer answer) {
        String calls = header(Timeline.spans(answer), answer.graph());
        StringBuilder sb = new StringBuilder(calls);
        for (var a : answer.attempts()) {
            if (!a.endpoint().isEmpty()) {
                sb.append(", ").append(a.upstream().value()).append("-try").append(a.number())
                        .append(";dur=").append(Math.round((a.endNanos() - a.startNanos()) / 100_000.0) / 10.0)
                        .append(";desc=\"").append(a.outcome().wire()).append('"');   // the endpoint stays in the timeline
            }
        }
        return sb.toString();
    }

    /** The header of {@code spans}; with their starts when {@code graph} (a composed route's calls). */
    public static String header(List<TimelineSpan> spans, boolean graph) {
        StringBuilder sb = new StringBuilder(32 * spans.size());
        for (TimelineSpan s : spans) {
            if (!sb.isEmpty()) {
                sb.append(", ");
            }
            sb.append(s.service());
            if (graph && s.startMs().isPresent()) {
                sb.append(";start=").append(Math.round(s.startMs().getAsDouble() * 10) / 10.0);
            }
            sb.append(";dur=").append(s.durationMs()).append(";desc=\"").append(s.label()).append('"');
        }
        return sb.toString();
    }
}
