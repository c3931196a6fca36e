package io.loomgate.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.Overrides;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.Value;
import io.loomgate.http.QueryParams;
import io.loomgate.json.JsonWriter;
import io.loomgate.upstream.Faults;
import io.loomgate.core.port.Upstream;
import io.loomgate.upstream.Upstreams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The simulated services, called through the same registry and decorators as any upstream. */
class SimulatedKindTest {

    private final SimulatedKind kind = new SimulatedKind();

    @AfterEach
    void close() throws Exception {
        kind.close();
    }

    private Upstream create(String service) {
        return kind.create(UpstreamId.of(service), new SimulatedKind.Settings(SimulatedService.fromWire(service).orElseThrow(),
                Optional.empty(), Map.of(), Optional.empty()));
    }

    private static Value call(Upstream upstream, String requestId, String query) throws Exception {
        RequestContext ctx = RequestContext.of(requestId, "/test", Duration.ofSeconds(60),
                QueryParams.parse(query), Overrides.NONE);
        return RequestContext.callWith(ctx, upstream::call);
    }

    @Test
    void theFileDigestMatchesAnIndependentReadOfTheFile() throws Exception {
        Upstream file = create("file");
        byte[] bytes = Files.readAllBytes(kind.sampleFilePath().orElseThrow());
        CRC32 crc = new CRC32();
        crc.update(bytes);
        long newlines = 0;
        for (byte b : bytes) {
            newlines += b == '\n' ? 1 : 0;
        }
        var digest = assertInstanceOf(FileDigest.class, call(file, "t", ""));
        assertEquals(10_000, digest.lines());
        assertEquals(newlines, digest.lines());
        assertEquals(bytes.length, digest.bytes());
        assertEquals(HexFormat.of().toHexDigits((int) crc.getValue()), digest.crc32());
    }

    @Test
    void computeSumsThePrimes() throws Exception {
        assertEquals(new PrimeSum(10, 4, 17), Primes.compute(10));
        assertEquals(new PrimeSum(2, 1, 2), Primes.compute(2));
        assertEquals(new PrimeSum(50_000, 5133, 121_013_308), Primes.compute(50_000));
        assertEquals(new PrimeSum(1_000_000, 78_498, 37_550_402_023L), Primes.compute(1_000_000));
        assertEquals(new PrimeSum(1000, 168, 76127), call(create("compute"), "c", "n=1000"));
    }

    @Test
    void textServicesReturnTheirTextOrTheDeclaredValue() throws Exception {
        assertEquals(Value.text("DB call completed"), call(create("db"), "t", ""));
        Upstream custom = kind.create(UpstreamId.of("orders"), new SimulatedKind.Settings(SimulatedService.DB,
                Optional.of(Map.of("orders", 3L)), Map.of(), Optional.empty()));
        JsonWriter w = new JsonWriter();
        call(custom, "t", "").writeTo(w);
        assertEquals("{\"orders\":3}", w.toString());
    }

    @Test
    void anInterruptStopsComputeEarlyAndTheCallLogSaysSo() throws Exception {
        UpstreamId compute = UpstreamId.of("compute");
        Upstreams upstreams = Upstreams.builder(OptionalLong.empty()).add(compute, create("compute"), Faults.NONE).build();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                call(upstreams.get(compute), "interrupt-me", "n=10000000");
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> upstreams.calls().inFlight(compute) == 1);
        t.interrupt();
        t.join(Duration.ofSeconds(60));
        assertFalse(t.isAlive());
        // It threw at the interrupt: a computation that ran to its end would have returned its sum.
        assertInstanceOf(InterruptedException.class, thrown.get());
        var call = upstreams.calls().callsOf("interrupt-me").getFirst();
        assertEquals(Outcome.CANCELLED, call.outcome(), "interrupted before its deadline");
        assertEquals(0, upstreams.calls().inFlight());
    }

    @Test
    void theSampleFileIsWrittenWhenNeededAndDeletedOnClose() throws Exception {
        create("db");
        assertEquals(java.util.Optional.empty(), kind.sampleFilePath(), "a text service needs no sample file");
        create("file");
        Path file = kind.sampleFilePath().orElseThrow();
        assertTrue(Files.exists(file));
        kind.close();
        assertFalse(Files.exists(file));
        assertFalse(Files.exists(file.getParent()));
    }

    @Test
    void aMissingSampleFileIsAClearUpstreamFailure() throws Exception {
        Upstream file = create("file");
        Files.delete(kind.sampleFilePath().orElseThrow());
        UpstreamFailure f = assertThrows(UpstreamFailure.class, () -> call(file, "gone", ""));
        assertEquals("file: the test file does not exist any more", f.getMessage());
    }
}
