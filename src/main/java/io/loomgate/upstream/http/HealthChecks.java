package io.loomgate.upstream.http;

import io.loomgate.client.Http1Client;
import io.loomgate.client.UpstreamResponse;
import io.loomgate.client.OutgoingRequest;
import io.loomgate.client.Origin;
import io.loomgate.http.Headers;
import io.loomgate.upstream.balance.Fleet;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Active health checks of an upstream's endpoints ({@code "health"}): each endpoint is asked
 * {@code GET path} every {@code every} (jittered by up to a tenth, so a fleet of gateways does not
 * probe in step), on a virtual thread of its own, one check at a time, through the upstream's pool
 * (a check that found a live connection leaves it for calls). {@code unhealthyAfter} failed checks in a row (no answer within
 * {@code timeout}, or a status not in {@code expect}) take it out of the balance;
 * {@code healthyAfter} good ones bring it back. Started when its plan goes live, stopped when the
 * upstream is released (a reload that removes or changes it) or loomgate stops.
 */
final class HealthChecks implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("loomgate");

    /** {@code "health"} as the route file declares it. */
    record Settings(String path, Duration every, Duration timeout, int unhealthyAfter, int healthyAfter, Set<Integer> expect,
                    boolean endsEjection) {
        Settings {
            expect = Set.copyOf(expect);
        }
    }

    private final String upstream;
    private final Settings settings;
    private final Fleet<Origin> fleet;
    private final Http1Client client;
    /** The thread checking each endpoint, by its key. */
    private final Map<String, Thread> threads = new HashMap<>();
    private boolean started;
    private volatile boolean closed;

    HealthChecks(String upstream, Settings settings, Fleet<Origin> fleet, Http1Client client) {
        this.upstream = upstream;
        this.settings = settings;
        this.fleet = fleet;
        this.client = client;
    }

    synchronized void start() {
        if (started || closed) {
            return;
        }
        started = true;
        sync();
    }

    /** The fleet changed (a host name resolved again): checks start for its new endpoints and stop for those it lost. */
    synchronized void sync() {
        if (!started || closed) {
            return;
        }
        List<Fleet.Member<Origin>> now = fleet.members();
        Set<String> keys = new HashSet<>();
        for (Fleet.Member<Origin> m : now) {
            keys.add(m.key());
            threads.computeIfAbsent(m.key(), k -> Thread.ofVirtual().name("health-" + upstream + "-" + k).start(() -> run(m)));
        }
        threads.entrySet().removeIf(e -> {
            if (keys.contains(e.getKey())) {
                return false;
            }
            e.getValue().interrupt();
            return true;
        });
    }

    private void run(Fleet.Member<Origin> m) {
        int good = 0;
        int bad = 0;
        while (!closed && !Thread.currentThread().isInterrupted()) {
            try {
                long jitter = settings.every().toMillis() / 10;
                Thread.sleep(settings.every().toMillis() - jitter + (jitter == 0 ? 0 : ThreadLocalRandom.current().nextLong(2 * jitter)));
            } catch (InterruptedException e) {
                return;
            }
            if (check(m.value())) {
                bad = 0;
                if (settings.endsEjection() && fleet.uneject(m)) {   // Envoy's default: a passing check ends a passive ejection
                    LOG.log(Level.INFO, "upstream " + upstream + ": endpoint " + m.key() + " passed a health check; its ejection ends");
                }
                if (++good >= settings.healthyAfter() && !m.up()) {
                    m.up(true);
                    fleet.returned(m);
                    LOG.log(Level.INFO, "upstream " + upstream + ": endpoint " + m.key() + " is healthy again");
                }
            } else {
                good = 0;
                if (++bad >= settings.unhealthyAfter() && m.up()) {
                    m.up(false);
                    LOG.log(Level.WARNING, "upstream " + upstream + ": endpoint " + m.key() + " failed " + bad
                            + " health checks in a row; it takes no calls until it passes " + settings.healthyAfter());
                }
            }
        }
    }

    /** One check: the answer's status is one {@code expect} lists, within {@code timeout}. */
    private boolean check(Origin origin) {
        OutgoingRequest request = new OutgoingRequest("GET", origin, settings.path(), Headers.EMPTY, null, 0);
        try (UpstreamResponse r = client.send(request, System.nanoTime() + settings.timeout().toNanos(), settings.timeout())) {
            try (InputStream body = r.body()) {
                body.transferTo(java.io.OutputStream.nullOutputStream());
            }
            return settings.expect().contains(r.status());
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        threads.values().forEach(Thread::interrupt);
    }
}
