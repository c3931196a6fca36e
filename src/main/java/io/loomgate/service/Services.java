package io.loomgate.service;

import io.loomgate.config.ServiceOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * The simulated backends. A call sleeps its latency, does its work (nothing, a file read, or
 * arithmetic), and then fails if asked to ({@code ?fail=}) or if the dice say so
 * ({@code --failure-rate}): a failing call takes as long as a succeeding one. Every call is
 * interruptible and is recorded by the {@link CallTracker}.
 *
 * <pre>{@code
 * try (Services services = Services.start(options)) {
 *     ServiceValue v = services.call(services.plan(ServiceName.DB, Map.of(), Set.of(), CallPlan.DEFAULT_N), "req-1");
 * }
 * }</pre>
 */
public final class Services implements AutoCloseable {

    private final ServiceOptions options;
    private final TestFile testFile;
    private final FailureDice dice;
    private final Map<ServiceName, Backend> backends;
    private final CallTracker tracker = new CallTracker();

    private Services(ServiceOptions options, TestFile testFile, Map<ServiceName, Backend> backends) {
        this.options = options;
        this.testFile = testFile;
        this.dice = new FailureDice(options.seed());
        this.backends = backends;
    }

    /** Writes the test file and readies every backend. */
    public static Services start(ServiceOptions options) throws IOException {
        return start(options, Map.of());
    }

    /** Like {@link #start(ServiceOptions)}, with some backends replaced (tests make one misbehave). */
    public static Services start(ServiceOptions options, Map<ServiceName, Backend> overrides) throws IOException {
        TestFile file = TestFile.create();
        Map<ServiceName, Backend> backends = new EnumMap<>(ServiceName.class);
        for (ServiceName s : ServiceName.values()) {
            backends.put(s, overrides.getOrDefault(s, standard(s, file)));
        }
        return new Services(options, file, backends);
    }

    private static Backend standard(ServiceName service, TestFile file) {
        return switch (service) {
            case DB -> text("DB call completed");
            case CACHE -> text("cache hit");
            case CACHE_1 -> text("cache-1 hit");
            case CACHE_2 -> text("cache-2 hit");
            case DATABASE -> text("database row");
            case FILE, FILE_FLAKY -> plan -> file.read(plan.service());
            case COMPUTE -> plan -> PrimeSum.compute(plan.n());
        };
    }

    private static Backend text(String value) {
        ServiceValue v = new ServiceValue.Text(value);
        return plan -> v;
    }

    /**
     * The plan for one call of {@code service} in a request.
     *
     * @param delays   per-request latency overrides ({@code ?delay=})
     * @param failures services the request wants to fail ({@code ?fail=})
     */
    public CallPlan plan(ServiceName service, Map<ServiceName, Duration> delays, Set<ServiceName> failures, int n) {
        Duration latency = delays.getOrDefault(service, options.latencyOf(service));
        return new CallPlan(service, latency, failures.contains(service), n);
    }

    /**
     * Makes one call, recorded under {@code requestId}.
     *
     * @throws ServiceFailure       when the call fails, on purpose or not
     * @throws InterruptedException when cancelled; the call stops where it was
     */
    public ServiceValue call(CallPlan plan, String requestId) throws ServiceFailure, InterruptedException {
        ServiceName service = plan.service();
        CallTracker.Started started = tracker.start(service, requestId);
        CallTracker.Ending ending = CallTracker.Ending.FAILED;
        try {
            if (plan.latency().isPositive()) {
                Thread.sleep(plan.latency());
            }
            ServiceValue value = backends.get(service).perform(plan);
            if (plan.forceFailure()) {
                throw new ServiceFailure(service, "failed on request (?fail=" + service.wire() + ")");
            }
            if (dice.fails(options.failureRateOf(service))) {
                throw new ServiceFailure(service, "random failure (rate " + options.failureRateOf(service) + ")");
            }
            ending = CallTracker.Ending.RETURNED;
            return value;
        } catch (InterruptedException e) {
            ending = CallTracker.Ending.INTERRUPTED;
            throw e;
        } finally {
            tracker.end(started, ending);
        }
    }

    public CallTracker tracker() {
        return tracker;
    }

    public ServiceOptions options() {
        return options;
    }

    /** The test file the {@code file} services read. */
    public Path testFile() {
        return testFile.path();
    }

    /** Deletes the test file and its directory. */
    @Override
    public void close() throws IOException {
        testFile.close();
    }
}
