package io.loomgate.edge.listener;

import com.sun.net.httpserver.HttpExchange;
import io.loomgate.edge.pipeline.Pipeline;
import io.loomgate.edge.server.ExchangeHandler;
import io.loomgate.http.Exchange;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The single handler, on either server: hands each exchange to the {@link Pipeline}, counts it while
 * it is being handled (shutdown waits for that count), and throws an answer that could not be written
 * whole (its streamed source failed, or the client went away) back to the server, which then closes
 * and forgets the connection. Loomgate's server hands it its own {@link Exchange}; the JDK's, an
 * {@link HttpExchange} that {@link ApiExchange} adapts.
 */
final class GatewayHandler implements ExchangeHandler {

    private final Pipeline pipeline;
    private final LongAdder served = new LongAdder();
    private final AtomicInteger handling = new AtomicInteger();

    GatewayHandler(Pipeline pipeline) {
        this.pipeline = pipeline;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        handle(new ApiExchange(exchange, RequestExecutor.arrivalNanos()));
    }

    @Override
    public void handle(Exchange exchange) throws IOException {
        handling.incrementAndGet();
        Optional<IOException> unfinished;
        try {
            unfinished = pipeline.run(exchange);
        } finally {
            handling.decrementAndGet();
        }
        if (unfinished.isPresent()) {
            throw unfinished.get();
        }
        served.increment();
    }

    /** Responses written since start. */
    /** {@link Pipeline#stopping}: every request at work now records {@code why} before it is interrupted. */
    void stopping(io.loomgate.http.StopReason why) {
        pipeline.stopping(why);
    }

    long served() {
        return served.sum();
    }

    /** Requests whose head has been read and whose answer is not written yet. */
    int handling() {
        return handling.get();
    }
}
