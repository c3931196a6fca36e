package io.loomgate;

import io.loomgate.config.ServerOptions;
import io.loomgate.config.ThreadMode;
import io.loomgate.observe.metrics.ServerGauges;
import io.loomgate.edge.listener.GatewayServer;
import java.util.Optional;
import java.util.concurrent.ThreadPoolExecutor;

/** The server's gauges as the metrics read them, so that {@code metrics} need not know {@code server}. */
record ServerGaugesOf(GatewayServer server, ServerOptions options) implements ServerGauges {

    @Override
    public long inFlight() {
        return server.inFlight();
    }

    @Override
    public long shed() {
        return server.admission().shed();
    }

    @Override
    public int maxInflight() {
        return server.admission().max();
    }

    @Override
    public Optional<Pool> pool() {
        ThreadPoolExecutor pool = server.pool();
        if (options.threads() != ThreadMode.PLATFORM || pool == null) {
            return Optional.empty();
        }
        return Optional.of(new Pool(pool.getCorePoolSize(), pool.getActiveCount(), pool.getQueue().size()));
    }
}
