package io.loomgate.demo;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Placeholder;
import io.loomgate.core.template.Template;
import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import io.loomgate.core.port.Upstream;
import io.loomgate.upstream.UpstreamKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code "kind": "simulated"}: an upstream that runs one of the {@link SimulatedService}s in-process.
 * Its fields are {@code service} (which one) and, for the text services, an optional {@code value}
 * (any JSON) to return instead of the usual text. Latency and failures come from the generic
 * {@code latency} and {@code failureRate} fields, injected like on any upstream.
 *
 * <p>The sample file the file services read is written on the first {@link #create} that needs it
 * and deleted by {@link #close}.
 */
public final class SimulatedKind implements UpstreamKind, AutoCloseable {

    private SampleFile sampleFile;

    @Override
    public String name() {
        return "simulated";
    }

    @Override
    public List<String> fields() {
        return List.of("service", "value", "data", "key");
    }

    /**
     * What one simulated declaration says.
     *
     * @param service which service it runs
     * @param value   for a text service, the JSON it returns instead of its usual text
     * @param data    for the dataset service, its entries by key
     * @param key     for the dataset service, the template that picks an entry ({@code {id}})
     */
    public record Settings(SimulatedService service, Optional<Object> value, Map<String, Object> data, Optional<String> key)
            implements UpstreamKind.Settings {

        public Settings {
            Objects.requireNonNull(service, "service");
            Objects.requireNonNull(value, "value");
            data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
            Objects.requireNonNull(key, "key");
        }

        @Override
        public void print(JsonWriter w) {
            w.field("service", service.wire());
            if (service == SimulatedService.DATASET) {
                w.name("data").tree(data).field("key", key.orElseThrow());
            }
            value.ifPresent(v -> w.name("value").tree(v));
        }

        /** A dataset's key names the path parameters it needs ({@code {id}}). */
        @Override
        public List<String> pathParameters() {
            return key.map(k -> Template.parse(k).placeholders().stream()
                    .filter(p -> p.fields().isEmpty() && !p.head().equals(Bindings.QUERY) && !p.head().equals(Bindings.HEADER))
                    .map(Placeholder::head).distinct().toList()).orElse(List.of());
        }

        @Override
        public Optional<String> cannotForward() {
            return Optional.of("must be an http upstream with policy proxy");
        }

        @Override
        public boolean takesCallShape() {
            return false;
        }
    }

    @Override
    public Settings read(Fields fields) throws RouteFileException {
        String name = fields.string("service");
        SimulatedService service = SimulatedService.fromWire(name).orElseThrow(
                () -> fields.bad("service", "must be one of " + SimulatedService.allWireNames(), name));
        if (service != SimulatedService.DATASET && (fields.optionalValue("data").isPresent()
                || fields.optionalValue("key").isPresent())) {
            throw fields.bad(fields.optionalValue("data").isPresent() ? "data" : "key", "is only for the dataset service", name);
        }
        Map<String, Object> data = Map.of();
        Optional<String> key = Optional.empty();
        if (service == SimulatedService.DATASET) {
            data = fields.optionalObject("data")
                    .orElseThrow(() -> fields.bad("data", "is needed by a dataset: an object of entries by key", "nothing"));
            key = Optional.of(fields.optionalString("key").orElse("{id}"));
            for (Placeholder p : fields.template("key", key.get()).placeholders()) {
                boolean request = p.head().equals(Bindings.QUERY) || p.head().equals(Bindings.HEADER) ? !p.fields().isEmpty()
                        : p.fields().isEmpty();
                if (!request) {
                    throw fields.bad("key", "must not have " + p + ", which is not {name}, {query.NAME} or {header.NAME}", key.get());
                }
            }
        }
        Optional<Object> value = fields.optionalValue("value");
        if (value.isPresent() && service.text().isEmpty()) {
            throw fields.bad("value", "is only for the text services (db, cache, ...), not " + name, value.get());
        }
        return new Settings(service, value, data, key);
    }

    @Override
    public Upstream create(UpstreamId id, UpstreamKind.Settings declared) {
        Settings settings = (Settings) declared;
        SimulatedService service = settings.service();
        if (service.readsFile()) {
            SampleFile file = sampleFile();
            return () -> file.read(id);
        }
        if (service == SimulatedService.COMPUTE) {
            return new ComputeUpstream();
        }
        if (service == SimulatedService.DATASET) {
            return new DatasetUpstream(id, settings.data(), Template.parse(settings.key().orElseThrow()));
        }
        if (service == SimulatedService.CREATED) {
            return new CreatedUpstream(id);
        }
        Value value = settings.value().<Value>map(v -> json -> json.tree(v)).orElseGet(() -> Value.text(service.text().orElseThrow()));
        return () -> value;
    }

    /** The sample file, once a file service has been created (none is written before). */
    public synchronized Optional<Path> sampleFilePath() {
        return Optional.ofNullable(sampleFile).map(SampleFile::path);
    }

    private synchronized SampleFile sampleFile() {
        if (sampleFile == null) {
            try {
                sampleFile = SampleFile.create();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the sample file", e);
            }
        }
        return sampleFile;
    }

    /** Deletes the sample file. */
    @Override
    public synchronized void close() throws IOException {
        if (sampleFile != null) {
            sampleFile.close();
        }
    }
}
