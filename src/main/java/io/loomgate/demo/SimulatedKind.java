package io.loomgate.demo;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.plan.Fields;
import io.loomgate.plan.RouteFileException;
import io.loomgate.plan.UpstreamKind;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Placeholder;
import io.loomgate.core.template.Template;
import io.loomgate.upstream.Upstream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    @Override
    public Map<String, Object> read(Fields fields) throws RouteFileException {
        String name = fields.string("service");
        SimulatedService service = SimulatedService.fromWire(name).orElseThrow(
                () -> fields.bad("service", "must be one of " + SimulatedService.allWireNames(), name));
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("service", service.wire());
        if (service != SimulatedService.DATASET && (fields.optionalValue("data").isPresent()
                || fields.optionalValue("key").isPresent())) {
            throw fields.bad(fields.optionalValue("data").isPresent() ? "data" : "key", "is only for the dataset service", name);
        }
        if (service == SimulatedService.DATASET) {
            Map<String, Object> data = fields.optionalObject("data")
                    .orElseThrow(() -> fields.bad("data", "is needed by a dataset: an object of entries by key", "nothing"));
            String key = fields.optionalString("key").orElse("{id}");
            for (Placeholder p : fields.template("key", key).placeholders()) {
                boolean request = p.head().equals(Bindings.QUERY) || p.head().equals(Bindings.HEADER) ? !p.fields().isEmpty()
                        : p.fields().isEmpty();
                if (!request) {
                    throw fields.bad("key", "must not have " + p + ", which is not {name}, {query.NAME} or {header.NAME}", key);
                }
            }
            settings.put("data", data);
            settings.put("key", key);
        }
        var value = fields.optionalValue("value");
        if (value.isPresent()) {
            if (service.text().isEmpty()) {
                throw fields.bad("value", "is only for the text services (db, cache, ...), not " + name, value.get());
            }
            settings.put("value", value.get());
        }
        return settings;
    }

    @Override
    public Upstream create(UpstreamId id, Map<String, Object> settings) {
        SimulatedService service = SimulatedService.fromWire((String) settings.get("service")).orElseThrow();
        if (service.readsFile()) {
            SampleFile file = sampleFile();
            return () -> file.read(id);
        }
        if (service == SimulatedService.COMPUTE) {
            return new ComputeUpstream();
        }
        if (service == SimulatedService.DATASET) {
            @SuppressWarnings("unchecked")
            Map<String, Object> data = (Map<String, Object>) settings.get("data");
            return new DatasetUpstream(id, data, Template.parse((String) settings.get("key")));
        }
        if (service == SimulatedService.CREATED) {
            return new CreatedUpstream(id);
        }
        Object declared = settings.get("value");
        Value value = declared != null ? json -> json.tree(declared) : Value.text(service.text().orElseThrow());
        return () -> value;
    }

    /** A dataset's key names the path parameters it needs ({@code {id}}). */
    @Override
    public List<String> pathParameters(Map<String, Object> settings) {
        if (!"dataset".equals(settings.get("service"))) {
            return List.of();
        }
        return Template.parse((String) settings.get("key")).placeholders().stream()
                .filter(p -> p.fields().isEmpty() && !p.head().equals(Bindings.QUERY) && !p.head().equals(Bindings.HEADER))
                .map(Placeholder::head).distinct().toList();
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
