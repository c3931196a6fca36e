package io.loomgate.api;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.json.JsonWriter;
import io.loomgate.edge.routing.Handler;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code GET /}: what this loomgate serves. JSON by default; an HTML page when the client asks for
 * {@code text/html} (a browser does).
 */
final class IndexEndpoint implements Handler {

    private final byte[] json;
    private final byte[] html;

    /** @param operator the operator paths this listener serves */
    IndexEndpoint(List<FanOutRoute> routes, List<ProxyRoute> proxies, List<ComposeRoute> composes, List<String> operator) {
        JsonWriter w = new JsonWriter(1024).beginObject().field("service", "loomgate").name("routes").beginArray();
        for (FanOutRoute r : routes) {
            w.beginObject().field("path", r.path()).field("policy", r.policy().name()).field("engine", r.engine().name());
            r.engine().executor().ifPresent(e -> w.field("executor", e));
            w.name("upstreams").beginArray();
            r.upstreams().forEach(id -> w.value(id.value()));
            w.endArray().endObject();
        }
        for (ComposeRoute c : composes) {
            w.beginObject().field("path", c.path()).field("policy", "compose").name("methods").beginArray();
            c.methods().forEach(w::value);
            w.endArray().name("calls").beginArray();
            c.graph().calls().forEach(call -> w.value(call.name()));
            w.endArray().name("upstreams").beginArray();
            c.upstreams().forEach(id -> w.value(id.value()));
            w.endArray().endObject();
        }
        for (ProxyRoute p : proxies) {
            w.beginObject().field("path", p.path()).field("policy", "proxy").name("upstreams").beginArray()
                    .value(p.upstream().value()).endArray().endObject();
        }
        w.endArray().name("operator").beginArray();
        operator.forEach(w::value);
        this.json = w.endArray().endObject().toBytes();
        this.html = html(routes, proxies, composes, operator).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Response handle(Request request) {
        String accept = request.headers().first("Accept");
        if (accept != null && accept.contains("text/html")) {
            return new Response(200, "text/html; charset=utf-8", html, Headers.EMPTY);
        }
        return new Response(200, Response.JSON, json, Headers.EMPTY);
    }

    private static String html(List<FanOutRoute> routes, List<ProxyRoute> proxies, List<ComposeRoute> composes,
                               List<String> operator) {
        StringBuilder sb = new StringBuilder("""
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>loomgate</title>
                <style>body{font:15px system-ui,sans-serif;margin:2em}td,th{padding:.2em .8em;text-align:left}</style>
                </head><body><h1>loomgate</h1><table><tr><th>route</th><th>policy</th><th>engine</th><th>upstreams</th></tr>
                """);
        for (FanOutRoute r : routes) {
            String upstreams = r.upstreams().stream().map(UpstreamId::value).collect(Collectors.joining(", "));
            sb.append("<tr><td>").append(link(r.path())).append("</td><td>")
                    .append(r.policy().name()).append("</td><td>").append(r.engine().name())
                    .append(r.engine().executor().map(e -> " (" + e + ")").orElse("")).append("</td><td>")
                    .append(upstreams).append("</td></tr>\n");
        }
        for (ComposeRoute c : composes) {
            sb.append("<tr><td>").append(c.methods().contains("GET") ? link(c.path()) : c.path()).append("</td><td>compose</td><td>")
                    .append(c.graph().calls().stream().map(call -> call.name()).collect(Collectors.joining(" ")))
                    .append("</td><td>").append(c.upstreams().stream().map(UpstreamId::value).collect(Collectors.joining(", ")))
                    .append("</td></tr>\n");
        }
        for (ProxyRoute p : proxies) {
            sb.append("<tr><td>").append(p.path()).append("</td><td>proxy</td><td></td><td>")
                    .append(p.upstream().value()).append("</td></tr>\n");
        }
        sb.append("</table><p>operator: ");
        sb.append(operator.stream().map(p -> "<a href=\"" + p + "\">" + p + "</a>").collect(Collectors.joining(", ")));
        return sb.append("</p></body></html>\n").toString();
    }

    /** A path with parameters is not a page to open as it is: it is listed, not linked. */
    private static String link(String path) {
        return path.indexOf('{') >= 0 ? path : "<a href=\"" + path + "\">" + path + "</a>";
    }
}
