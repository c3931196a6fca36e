package io.loomgate.service;

/**
 * A service call that failed: injected on purpose ({@code ?fail=db}, {@code --failure-rate}) or for
 * real (the test file is gone). The message is safe to show a client and names the service.
 */
public final class ServiceFailure extends Exception {

    private final ServiceName service;

    public ServiceFailure(ServiceName service, String message) {
        super(service.wire() + ": " + message, null, false, false);
        this.service = service;
    }

    public ServiceName service() {
        return service;
    }
}
