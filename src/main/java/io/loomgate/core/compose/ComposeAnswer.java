package io.loomgate.core.compose;

import io.loomgate.config.Durations;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.Status;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Placeholder;
import io.loomgate.core.template.Template;
import io.loomgate.core.template.UnsafeValue;
import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import io.loomgate.json.JsonWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The answer of a composed request. When every required call succeeded: the route's answer
 * template filled in, in declared order, so the same inputs always give the same bytes (a 200,
 * with {@code X-Loomgate-Completed: false} when an optional call's fallback stands in). Otherwise:
 * a required call's 4xx is answered with that status and the upstream's own JSON error (or an
 * error naming the call); a 5xx, an unreachable upstream or an invalid answer is a 502; the deadline
 * is a 504 naming the calls that had not finished.
 */
public final class ComposeAnswer {

    private ComposeAnswer() {
    }

    public static Response of(Composition c, RequestContext ctx) {
        return switch (c.status()) {
            case OK, DEGRADED -> {
                Response r = Response.json(200, new JsonWriter(512).tree(fill(c.graph().answer(), c, ctx)));
                yield c.status() == Status.DEGRADED ? r.withHeader("X-Loomgate-Completed", "false") : r;
            }
            case FAILED -> failed(c.failed().orElseThrow());
            case TIMEOUT -> error(504, "gateway_timeout", c.failed().map(CallResult::reason).orElseGet(() -> late(c)), null);
        };
    }

    /** {@code deadline of 90ms passed; still running: team; not started: items}. */
    private static String late(Composition c) {
        StringBuilder why = new StringBuilder("deadline of " + Durations.format(c.timeout()) + " passed");
        String running = c.unfinished().stream().filter(r -> r.start().isPresent()).map(CallResult::name)
                .collect(Collectors.joining(", "));
        String waiting = c.unfinished().stream().filter(r -> r.start().isEmpty()).map(CallResult::name)
                .collect(Collectors.joining(", "));
        if (!running.isEmpty()) {
            why.append("; still running: ").append(running);
        }
        if (!waiting.isEmpty()) {
            why.append("; not started: ").append(waiting);
        }
        return why.toString();
    }

    private static Response failed(CallResult call) {
        int status = call.status().orElse(0);
        if (status >= 400 && status < 500) {
            return call.body().map(json -> new Response(status, Response.JSON, json.getBytes(StandardCharsets.UTF_8),
                    Headers.EMPTY)).orElseGet(() -> error(status, "upstream_error", call.reason(), call.name()));
        }
        return error(502, "bad_gateway", call.reason(), call.name());
    }

    private static Response error(int status, String code, String message, String call) {
        JsonWriter w = new JsonWriter(128).beginObject().field("status", status).field("error", code).field("message", message);
        if (call != null) {
            w.field("call", call);
        }
        return Response.json(status, w.endObject());
    }

    /** The template with its placeholders filled in: a lone placeholder keeps its JSON type, text around one makes text. */
    static Object fill(Object template, Composition c, RequestContext ctx) {
        return switch (template) {
            case Template t -> {
                try {
                    yield t.value(p -> value(p, c, ctx));
                } catch (UnsafeValue impossible) {
                    throw new IllegalStateException(impossible);   // TEXT encoding refuses nothing
                }
            }
            case Map<?, ?> m -> {
                Map<String, Object> out = new LinkedHashMap<>();
                m.forEach((k, v) -> out.put((String) k, fill(v, c, ctx)));
                yield out;
            }
            case List<?> l -> {
                List<Object> out = new ArrayList<>(l.size());
                l.forEach(v -> out.add(fill(v, c, ctx)));
                yield out;
            }
            case null, default -> template;
        };
    }

    private static Object value(Placeholder p, Composition c, RequestContext ctx) {
        if (p.head().equals("errors") && p.fields().isEmpty()) {
            List<Object> errors = new ArrayList<>();
            for (CallResult r : c.errors()) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("call", r.name());
                e.put("error", r.reason());
                errors.add(e);
            }
            return errors;
        }
        int i = c.graph().indexOf(p.head());
        if (i >= 0) {
            return Template.field(c.calls().get(i).value(), p.fields());
        }
        return Bindings.request(ctx, p);
    }

    private static String literal(Template t) {
        try {
            return t.render(p -> null, Template.Encoding.TEXT);
        } catch (UnsafeValue impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** The default answer, when a route declares none: each call's answer under its name. */
    public static Object defaultTemplate(List<String> calls) {
        Map<String, Object> answer = new LinkedHashMap<>();
        calls.forEach(name -> answer.put(name, Template.parse("{" + name + "}")));
        return answer;
    }

    /** A route file's answer, its strings that hold placeholders made templates. */
    public static Object compile(Object json) {
        return switch (json) {
            case String s -> {
                Template t = Template.parse(s);
                yield t.hasPlaceholders() ? t : literal(t);
            }
            case Map<?, ?> m -> {
                Map<String, Object> out = new LinkedHashMap<>();
                m.forEach((k, v) -> out.put((String) k, compile(v)));
                yield out;
            }
            case List<?> l -> l.stream().map(ComposeAnswer::compile).toList();
            case null, default -> json;
        };
    }
}
