package io.loomgate.api;

import io.loomgate.edge.routing.Route;
import io.loomgate.http.HttpError;
import io.loomgate.http.Response;
import io.loomgate.json.JsonWriter;
import java.util.List;

/**
 * The admin API, on the admin listener only ({@code --admin-port}, bound to 127.0.0.1 unless
 * {@code --admin-host} says otherwise): {@code GET /admin/config}, {@code GET /admin/upstreams},
 * {@code GET /admin/store}, {@code POST /admin/reload} and {@code DELETE /admin/cache/{upstream}}. JSON answers, documented in docs/http-api.md.
 */
public final class AdminEndpoints {

    public static final String CONFIG = "/admin/config";
    public static final String UPSTREAMS = "/admin/upstreams";
    public static final String RELOAD = "/admin/reload";
    public static final String STORE = "/admin/store";
    public static final String CACHE = "/admin/cache/{upstream}";

    private AdminEndpoints() {
    }

    public static List<Route> of(AdminControl control) {
        return List.of(
                Route.operator(CONFIG, request -> json(control::writeConfig)),
                Route.operator(UPSTREAMS, request -> json(control::writeUpstreams)),
                Route.operator(STORE, request -> json(control::writeStore)),
                new Route("POST", RELOAD, request -> reload(control), true),
                new Route("DELETE", CACHE, request -> purge(control, request), true));
    }

    private static Response json(java.util.function.Consumer<JsonWriter> body) {
        JsonWriter w = new JsonWriter(1024);
        body.accept(w);
        return Response.json(200, w);
    }

    /** 200 with how many answers went, or 404 for an upstream without a cache. */
    private static Response purge(AdminControl control, io.loomgate.http.Request request) {
        String upstream = request.params().get("upstream");
        java.util.Optional<String> key = request.query().first("key");
        java.util.Optional<String> tag = request.query().first("tag");
        String soft = request.query().first("soft").orElse("false");
        if (key.isPresent() && tag.isPresent()) {
            throw HttpError.badRequest("bad_parameter", "purge by key or by tag, not both");
        }
        if (!soft.equals("true") && !soft.equals("false")) {
            throw HttpError.badRequest("bad_parameter", "soft must be true or false");
        }
        var n = control.purgeCache(upstream, new io.loomgate.upstream.cache.Purge(key, tag, soft.equals("true")));
        if (n.isEmpty()) {
            throw new HttpError(404, "no_cache", "no upstream of that id has a cache");
        }
        return Response.json(200, new JsonWriter(64).beginObject().field("purged", n.getAsInt()).endObject());
    }

    /** 200 with what changed, or 400 with the error, the running plan kept. */
    private static Response reload(AdminControl control) {
        return switch (control.reload("admin API")) {
            case AdminControl.Reload.Done d -> Response.json(200, new JsonWriter(256).beginObject().field("result", "reloaded")
                    .field("summary", d.summary()).endObject());
            case AdminControl.Reload.Refused r -> throw new HttpError(400, "reload_refused",
                    r.error() + " (the running configuration is kept)");
        };
    }
}
