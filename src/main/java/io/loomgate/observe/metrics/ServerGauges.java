package io.loomgate.observe.metrics;

import java.util.Optional;

/** What the metrics read from the HTTP server, without knowing which server it is. */
public interface ServerGauges {

    /** Exchanges the server is working on now. */
    long inFlight();

    /** Requests refused by the admission limit since start. */
    long shed();

    /** The admission limit; 0 for none. */
    int maxInflight();

    /** The platform request pool, or empty in virtual mode. */
    Optional<Pool> pool();

    /** The platform request pool: its size, threads busy now, and requests waiting for one. */
    record Pool(int size, int active, int queued) {
    }
}
