package io.loomgate.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.config.ServiceOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ServicesTest {

    private Services services;

    @BeforeEach
    void start() throws Exception {
        services = Services.start(CommandLine.config().services());
    }

    @AfterEach
    void stop() throws Exception {
        services.close();
    }

    private CallPlan plan(ServiceName s) {
        return services.plan(s, Map.of(), Set.of(), CallPlan.DEFAULT_N);
    }

    @Test
    void theFileDigestMatchesAnIndependentReadOfTheFile() throws Exception {
        byte[] bytes = Files.readAllBytes(services.testFile());
        CRC32 crc = new CRC32();
        crc.update(bytes);
        long newlines = 0;
        for (byte b : bytes) {
            newlines += b == '\n' ? 1 : 0;
        }
        var digest = assertInstanceOf(ServiceValue.FileDigest.class, services.call(plan(ServiceName.FILE), "t"));
        assertEquals(10_000, digest.lines());
        assertEquals(newlines, digest.lines());
        assertEquals(bytes.length, digest.bytes());
        assertEquals(HexFormat.of().toHexDigits((int) crc.getValue()), digest.crc32());
    }

    @Test
    void computeSumsThePrimes() throws Exception {
        assertEquals(new ServiceValue.PrimeSum(10, 4, 17), PrimeSum.compute(10));
        assertEquals(new ServiceValue.PrimeSum(2, 1, 2), PrimeSum.compute(2));
        assertEquals(new ServiceValue.PrimeSum(50_000, 5133, 121_013_308), PrimeSum.compute(50_000));
        assertEquals(new ServiceValue.PrimeSum(1_000_000, 78_498, 37_550_402_023L), PrimeSum.compute(1_000_000));
    }

    @Test
    void anInterruptStopsComputeEarly() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CallPlan big = services.plan(ServiceName.COMPUTE, Map.of(), Set.of(), CallPlan.MAX_N);
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                services.call(big, "interrupt-me");
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        Thread.sleep(100);
        long interruptedAt = System.nanoTime();
        t.interrupt();
        t.join(Duration.ofSeconds(5));
        long stopMs = (System.nanoTime() - interruptedAt) / 1_000_000;
        assertFalse(t.isAlive());
        assertInstanceOf(InterruptedException.class, thrown.get());
        assertTrue(stopMs < 500, "compute stopped " + stopMs + " ms after the interrupt");
        var call = services.tracker().callsOf("interrupt-me").getFirst();
        assertEquals(CallTracker.Ending.INTERRUPTED, call.ending());
        assertTrue(call.duration().toMillis() < 1_000, "a 10M compute takes seconds; this one ran " + call.duration());
    }

    @Test
    void aForcedFailureSpendsTheLatencyFirst() {
        CallPlan plan = services.plan(ServiceName.DB, Map.of(ServiceName.DB, Duration.ofMillis(80)), Set.of(ServiceName.DB), 2);
        ServiceFailure f = assertThrows(ServiceFailure.class, () -> services.call(plan, "fail-me"));
        assertEquals("db: failed on request (?fail=db)", f.getMessage());
        var call = services.tracker().callsOf("fail-me").getFirst();
        assertEquals(CallTracker.Ending.FAILED, call.ending());
        assertTrue(call.duration().toMillis() >= 75, call.duration().toString());
    }

    @Test
    void latenciesComeFromDefaultsFlagsAndTheRequest() throws Exception {
        ServiceOptions options = CommandLine.config("--latency", "db=120ms").services();
        try (Services s = Services.start(options)) {
            assertEquals(Duration.ofMillis(120), s.plan(ServiceName.DB, Map.of(), Set.of(), 2).latency());
            assertEquals(Duration.ofMillis(150), s.plan(ServiceName.CACHE, Map.of(), Set.of(), 2).latency());
            assertEquals(Duration.ofMillis(7),
                    s.plan(ServiceName.DB, Map.of(ServiceName.DB, Duration.ofMillis(7)), Set.of(), 2).latency());
        }
    }

    @Test
    void aSeedMakesRandomFailuresReproducible() throws Exception {
        ServiceOptions options = CommandLine.config("--failure-rate", "cache=0.5", "--seed", "7",
                "--latency", "cache=0ms").services();
        assertEquals(outcomes(options), outcomes(options));
        assertTrue(outcomes(options).contains(true) && outcomes(options).contains(false));
    }

    private static List<Boolean> outcomes(ServiceOptions options) throws Exception {
        List<Boolean> failed = new ArrayList<>();
        try (Services s = Services.start(options)) {
            for (int i = 0; i < 40; i++) {
                try {
                    s.call(s.plan(ServiceName.CACHE, Map.of(), Set.of(), 2), "seeded");
                    failed.add(false);
                } catch (ServiceFailure e) {
                    failed.add(true);
                }
            }
        }
        return failed;
    }

    @Test
    void callsInFlightAreCountedAndTheTestFileIsDeletedOnClose() throws Exception {
        Path file = services.testFile();
        assertTrue(Files.exists(file));
        assertEquals(0, services.tracker().inFlight());
        services.close();
        assertFalse(Files.exists(file));
        assertFalse(Files.exists(file.getParent()));
    }

    @Test
    void aMissingTestFileIsAClearServiceFailure() throws Exception {
        Files.delete(services.testFile());
        ServiceFailure f = assertThrows(ServiceFailure.class, () -> services.call(plan(ServiceName.FILE), "gone"));
        assertEquals("file: the test file does not exist any more", f.getMessage());
    }
}
