package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.config.Config;
import io.loomgate.config.ThreadMode;
import io.loomgate.config.UsageException;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.fanout.FanOut;
import io.loomgate.demo.SimulatedKind;
import io.loomgate.observe.event.Events;
import io.loomgate.testing.TestClient;
import io.loomgate.upstream.http.HttpKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The serving plan is compiled in one step, holds no socket, and a second one can be built while the first serves. */
class ServingPlanTest {

    @TempDir
    Path dir;

    private Path routes(String name, String json) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, json);
        return file;
    }

    private static ServingPlan compile(Config config, SimulatedKind simulated, HttpKind http) throws UsageException {
        Map<String, FanOut> engines = Map.of("structured", FanOut.structured(ThreadMode.VIRTUAL, new LongAdder()));
        return ServingPlan.compile(config, Modules.of(simulated, http), Map.of(), engines, Events.NONE);
    }

    @Test
    void aSecondPlanIsCompiledWhileTheFirstServesAndTouchesNothingOfIt() throws Exception {
        Path first = routes("first.json", """
                {"upstreams": [{"id": "a", "kind": "simulated", "service": "cache"}],
                 "routes": [{"path": "/one", "policy": "single", "upstreams": ["a"]}]}""");
        Path second = routes("second.json", """
                {"upstreams": [{"id": "b", "kind": "simulated", "service": "cache"},
                               {"id": "c", "kind": "simulated", "service": "cache"}],
                 "routes": [{"path": "/two", "policy": "all", "upstreams": ["b", "c"]}]}""");
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", first.toString()));
             TestClient client = new TestClient(gate.baseUri());
             SimulatedKind simulated = new SimulatedKind();
             HttpKind http = new HttpKind(io.loomgate.config.AddressRanges.NONE, "http")) {
            ServingPlan next = compile(CommandLine.config("--port", "0", "--routes", second.toString()), simulated, http);

            assertEquals(List.of("/two"), next.plan().routes().stream().map(r -> r.path()).toList());
            assertEquals(List.of(UpstreamId.of("b"), UpstreamId.of("c")), next.upstreams().ids());
            assertNotSame(gate.upstreams(), next.upstreams());
            assertEquals(1, next.routes().fanOuts().size());
            assertEquals(200, client.get("/one").statusCode(), "the serving plan still serves");
            assertEquals(404, client.get("/two").statusCode(), "the next plan is not served until it is swapped in");
            assertEquals(List.of(UpstreamId.of("a")), gate.upstreams().ids());
        }
    }

    @Test
    void everyCheckHappensInTheCompileStepBeforeAnySocket() throws Exception {
        Path keyless = routes("keyless.json", """
                {"upstreams": [{"id": "a", "kind": "simulated", "service": "cache"}],
                 "routes": [{"path": "/k", "policy": "single", "upstreams": ["a"], "auth": "apiKey"}]}""");
        try (SimulatedKind simulated = new SimulatedKind();
             HttpKind http = new HttpKind(io.loomgate.config.AddressRanges.NONE, "http")) {
            UsageException noKeys = assertThrows(UsageException.class,
                    () -> compile(CommandLine.config("--port", "0", "--routes", keyless.toString()), simulated, http));
            assertTrue(noKeys.getMessage().contains("route /k requires an API key"), noKeys.getMessage());

            Path cert = routes("cert.pem", "not a certificate");
            UsageException badTls = assertThrows(UsageException.class, () -> compile(CommandLine.config("--port", "0",
                    "--tls-cert", cert.toString(), "--tls-key", cert.toString()), simulated, http));
            assertTrue(badTls.getMessage().contains(cert.toString()), badTls.getMessage());
        }
    }
}
