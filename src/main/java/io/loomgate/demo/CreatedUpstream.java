package io.loomgate.demo;

import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.core.port.Call;
import io.loomgate.json.JsonParser;
import io.loomgate.core.port.Upstream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code "service": "created"}: takes the JSON object a call carries and answers it with a new
 * {@code id} first, as an API answers a POST that created something. Nothing is kept.
 */
final class CreatedUpstream implements Upstream {

    private final UpstreamId id;
    private final AtomicLong next = new AtomicLong(1000);

    CreatedUpstream(UpstreamId id) {
        this.id = id;
    }

    @Override
    public Value call() throws UpstreamFailure {
        return call(Call.PLAIN);
    }

    @Override
    public Value call(Call call) throws UpstreamFailure {
        Map<String, Object> created = new LinkedHashMap<>();
        created.put("id", next.getAndIncrement());
        try {
            JsonParser.parseObject(call.body() == null ? "{}" : new String(call.body(), StandardCharsets.UTF_8))
                    .forEach(created::putIfAbsent);
        } catch (IllegalArgumentException e) {
            throw new UpstreamFailure(id, "the body must be a JSON object", OptionalInt.of(400),
                    Optional.of("{\"status\":400,\"error\":\"bad_body\",\"message\":\"the body must be a JSON object\"}"));
        }
        return json -> json.tree(created);
    }
}
