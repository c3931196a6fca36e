package io.loomgate.demo;

import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Template;
import io.loomgate.core.template.UnsafeValue;
import io.loomgate.json.JsonWriter;
import io.loomgate.core.port.Upstream;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code "service": "dataset"}: a small keyed table of JSON, for the bundled backend's API. Each
 * call looks up the entry its {@code key} template names ({@code {id}}, {@code {query.userId}});
 * a missing one fails with 404 and a JSON error, as a real API would answer.
 */
final class DatasetUpstream implements Upstream {

    private final UpstreamId id;
    private final Map<String, Object> data;
    private final Template key;

    DatasetUpstream(UpstreamId id, Map<String, Object> data, Template key) {
        this.id = id;
        this.data = Map.copyOf(data);
        this.key = key;
    }

    @Override
    public Value call() throws UpstreamFailure {
        RequestContext ctx = RequestContext.current();
        String k;
        try {
            k = key.render(p -> Bindings.request(ctx, p), Template.Encoding.TEXT);
        } catch (UnsafeValue impossible) {
            throw new IllegalStateException(impossible);
        }
        Object entry = data.get(k);
        if (entry == null) {
            String body = new JsonWriter(64).beginObject().field("status", 404).field("error", "not_found")
                    .field("message", "no " + id + " '" + k + "'").endObject().toString();
            throw new UpstreamFailure(id, "no entry '" + k + "'", OptionalInt.of(404), Optional.of(body));
        }
        return json -> json.tree(entry);
    }
}
